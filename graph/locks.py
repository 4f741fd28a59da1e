"""Names of the write locks that use cases in more than one module take (design §6).

`PENDING_PAIRS`: storing a vector, recording a verdict and deleting a drawer all change the
pending duplicate pairs (`graph.review.duplicate_pairs`). On Neo4j each holds this lock until it
commits, so a vector's neighbour search sees every vector and verdict committed before it, and
no edge is created to a drawer being deleted. FalkorDB's store already serialises every write.
"""

from dataclasses import dataclass
from typing import Any

from castlegraph.graph.backends.store import Row, Tx

PENDING_PAIRS = "embeddings"
"""The lock vector writes already took for the palace's dimension: one lock, one order."""


def room_lock(wing: str, room: str) -> str:
    """The lock of one room: every write to its drawers holds it (design §6)."""
    return f"room\x1f{wing}\x1f{room}"


@dataclass
class RoomLock:
    """A unit's lock on one room, taken once: on its own (`take`), or by the first statement
    that needs it (`run`), which saves Neo4j a round trip (`Tx.run_locked`)."""

    tx: Tx
    scope: str
    held: bool = False

    def take(self) -> None:
        if not self.held:
            self.tx.lock(self.scope)
            self.held = True

    def run(self, name: str, /, **params: Any) -> list[Row]:
        """`Tx.run`, the lock taken first if it is not held yet."""
        if self.held:
            return self.tx.run(name, **params)
        rows = self.tx.run_locked(self.scope, name, **params)
        self.held = True
        return rows
