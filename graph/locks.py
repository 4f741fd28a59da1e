"""Names of the write locks that use cases in more than one module take (design §6).

`PENDING_PAIRS`: storing a vector, recording a verdict and deleting a drawer all change the
pending duplicate pairs (`graph.review.duplicate_pairs`). On Neo4j each holds this lock until it
commits, so a vector's neighbour search sees every vector and verdict committed before it, and
no edge is created to a drawer being deleted. FalkorDB's store already serialises every write.
"""

PENDING_PAIRS = "embeddings"
"""The lock vector writes already took for the palace's dimension: one lock, one order."""


def room_lock(wing: str, room: str) -> str:
    """The lock of one room: every write to its drawers holds it (design §6)."""
    return f"room\x1f{wing}\x1f{room}"
