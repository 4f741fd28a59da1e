"""The statements a block of code runs, recorded through the graph layer's hook
(`graph.backends.observe`): tests count round trips and read what units returned with it."""

from collections.abc import Iterator
from contextlib import contextmanager

from castlegraph.graph.backends import observe


class StatementLog:
    """Statement names in the order they ran, and each committed unit with its result."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.units: list[tuple[str, object]] = []

    def statement(self, name: str, seconds: float, failed: bool) -> None:
        self.names.append(name)

    def unit(self, use_case: str, result: object) -> None:
        self.units.append((use_case, result))

    def results(self, use_case: str) -> list[object]:
        """What the committed units of `use_case` returned, in order."""
        return [result for name, result in self.units if name == use_case]


@contextmanager
def recording_statements() -> Iterator[StatementLog]:
    """Subscribed for the block, unsubscribed on the way out whatever happened."""
    log = StatementLog()
    observe.subscribe(log)
    try:
        yield log
    finally:
        observe.unsubscribe(log)
