"""Holding a write unit open at a chosen point, to interleave two writers deterministically.

Subscribed to the graph layer's statement hook (`graph.backends.observe`), `HoldFirst(name)` stops
the first unit that runs statement `name` right after that statement — inside its transaction,
before its commit — until the test releases it. A second writer started meanwhile meets the first
one's uncommitted state: what two instances writing at once would meet.
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from castlegraph.graph.backends import observe

HOLD_SECONDS = 60.0


class HoldFirst:
    def __init__(self, statement: str) -> None:
        self.name = statement
        self.holding, self.release = threading.Event(), threading.Event()

    def statement(self, name: str, seconds: float, failed: bool) -> None:
        if name == self.name and not self.holding.is_set():
            self.holding.set()
            assert self.release.wait(timeout=HOLD_SECONDS)

    def unit(self, use_case: str, result: object) -> None:
        """Committed units need no holding."""


@contextmanager
def holding_first(statement: str) -> Iterator[HoldFirst]:
    """Subscribed for the block; released on the way out whatever happened."""
    hold = HoldFirst(statement)
    observe.subscribe(hold)
    try:
        yield hold
    finally:
        hold.release.set()
        observe.unsubscribe(hold)
