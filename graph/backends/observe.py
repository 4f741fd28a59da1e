"""Hooks that let the service watch the graph layer without the graph layer knowing who watches.

The two stores decorate their transaction's `run` with `timed_statement` and their `write` with
`observed_write`; the service's metrics subscribe. With no subscriber a hook costs one
empty-tuple test. Observers are held by weak reference: an app that is dropped (a test's) stops
observing without having to unsubscribe.
"""

import functools
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, Protocol, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


class Observer(Protocol):
    def statement(self, name: str, seconds: float, failed: bool) -> None:
        """One named statement ran (one database round trip)."""
        ...

    def unit(self, use_case: str, result: object) -> None:
        """One write unit committed; `result` is what the use case's work returned."""
        ...


_observers: tuple["weakref.ref[Observer]", ...] = ()
_subscribing = threading.Lock()


def subscribe(observer: Observer) -> None:
    global _observers  # noqa: PLW0603  # replaced whole, so readers never see it change
    with _subscribing:
        alive = tuple(ref for ref in _observers if ref() is not None)
        _observers = (*alive, weakref.ref(observer))


def unsubscribe(observer: Observer) -> None:
    global _observers  # noqa: PLW0603
    with _subscribing:
        _observers = tuple(ref for ref in _observers if ref() not in (None, observer))


def _live() -> list[Observer]:
    return [observer for ref in _observers if (observer := ref()) is not None]


def timed_statement(run: F) -> F:
    """For `Tx.run(self, name, /, **params)`: report each round trip with its statement name,
    duration and whether it failed. A statement Neo4j's driver retries is reported once per
    attempt."""

    @functools.wraps(run)
    def timed(self: object, name: str, /, **params: Any) -> Any:
        if not _observers:
            return run(self, name, **params)
        started = time.perf_counter()
        failed = True
        try:
            rows = run(self, name, **params)
            failed = False
            return rows
        finally:
            seconds = time.perf_counter() - started
            for observer in _live():
                observer.statement(name, seconds, failed)

    return cast(F, timed)


def observed_write(write: F) -> F:
    """For `GraphStore.write(self, work, *, use_case)`: report what a committed unit returned,
    once, after it committed (not per retried attempt)."""

    @functools.wraps(write)
    def observed(self: object, work: Callable[[Any], Any], *, use_case: str) -> Any:
        result = write(self, work, use_case=use_case)
        for observer in _live():
            observer.unit(use_case, result)
        return result

    return cast(F, observed)
