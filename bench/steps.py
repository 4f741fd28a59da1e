"""Each step's CPU time, for the in-process profilers (`bench.profile_drawers`,
`bench.profile_checkpoints`): named functions wrapped for the time they run, on whichever thread
calls them (a checkpoint's steps run on the jobs thread), then put back.

Steps nest (a step's time counts in every step around it too), so the figures are read as a
tree, not summed. Unlike cProfile, only the steps named pay the wrapper (~1 µs a call).
"""

import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from typing import Any

Wrap = Callable[[Callable[..., Any]], Callable[..., Any]]
"""A function given the one it replaces (a classmethod's function), answering its replacement."""


@contextmanager
def replaced(wrappers: Sequence[tuple[Any, str, Wrap]]) -> Iterator[None]:
    """Each (owner, name, wrap): the function `name` of `owner` (a module's function, a class's
    method or classmethod) replaced by what `wrap` makes of it while the block runs, then put
    back as it was (`Steps.timed`, `bench.mention_funnel.Funnel.counting`)."""
    saved = [(owner, name, owner.__dict__[name]) for owner, name, _ in wrappers]
    for (owner, name, original), (_, _, wrap) in zip(saved, wrappers, strict=True):
        is_classmethod = isinstance(original, classmethod)
        wrapped = wrap(original.__func__ if is_classmethod else original)
        setattr(owner, name, classmethod(wrapped) if is_classmethod else wrapped)
    try:
        yield
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)


class Steps:
    """CPU seconds and calls per step, while `timed` wraps them."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def _wrapped(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            started = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[name] += time.thread_time() - started

        return timed

    def timed(self, steps: Sequence[tuple[Any, str]]) -> AbstractContextManager[None]:
        """Each (owner, name) of `steps` (a module's function, a class's method or classmethod)
        timed while the block runs, then put back as it was."""
        return replaced(
            [
                (owner, name, partial(self._wrapped, f"{getattr(owner, '__name__', owner)}.{name}"))
                for owner, name in steps
            ]
        )

    def print(self, per: int, unit: str) -> None:
        """Each step's CPU time per `unit` (`per` of them ran), the costliest first."""
        for name, seconds in sorted(self.seconds.items(), key=lambda item: -item[1]):
            per_unit = seconds / per * 1e6
            print(f"  {name:50} {per_unit:8.0f} µs per {unit}, {self.calls[name]:5} calls")
