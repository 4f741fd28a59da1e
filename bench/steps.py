"""Each step's CPU time, for the in-process profilers (`bench.profile_drawers`,
`bench.profile_checkpoints`): named functions wrapped for the time they run, on whichever thread
calls them (a checkpoint's steps run on the jobs thread), then put back.

Steps nest (a step's time counts in every step around it too), so the figures are read as a
tree, not summed. Unlike cProfile, only the steps named pay the wrapper (~1 µs a call).
"""

import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any


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

    @contextmanager
    def timed(self, steps: Sequence[tuple[Any, str]]) -> Iterator[None]:
        """Each (owner, name) of `steps` (a module's function, a class's method or classmethod)
        timed while the block runs, then put back as it was."""
        saved = [(owner, name, owner.__dict__[name]) for owner, name in steps]
        for owner, name, original in saved:
            is_classmethod = isinstance(original, classmethod)
            function = original.__func__ if is_classmethod else original
            wrapped = self._wrapped(f"{getattr(owner, '__name__', owner)}.{name}", function)
            setattr(owner, name, classmethod(wrapped) if is_classmethod else wrapped)
        try:
            yield
        finally:
            for owner, name, original in saved:
                setattr(owner, name, original)

    def print(self, per: int, unit: str) -> None:
        """Each step's CPU time per `unit` (`per` of them ran), the costliest first."""
        for name, seconds in sorted(self.seconds.items(), key=lambda item: -item[1]):
            per_unit = seconds / per * 1e6
            print(f"  {name:50} {per_unit:8.0f} µs per {unit}, {self.calls[name]:5} calls")
