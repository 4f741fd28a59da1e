"""Pending duplicate pairs, kept up to date as vectors arrive (design §6).

Hygiene and `find_duplicates` at the default threshold used to search the vector index for
every drawer of the palace on every call. Instead, each vector asks the index once, when it is
stored: its neighbours at or above `PENDING_FLOOR` become `DUPLICATE_CANDIDATE` edges (smaller
id first, with the cosine), replacing the drawer's earlier ones, in the statement that stores
the vector. Readers then count or cluster stored edges, so their cost follows the pairs, not
the palace. The edges are review bookkeeping, not knowledge: neither a verdict nor a
SIMILAR_TO, and no export carries them.

What keeps them exact:
- a vector, first or again, replaces its drawer's pairs under `graph.locks.PENDING_PAIRS`, so
  of two vectors stored at once the second sees the first;
- k grows until the list ends below the floor, so a drawer with many look-alikes keeps them all;
- a pair with a verdict is never stored, and recording a verdict removes the pair (same lock);
- superseding, retiring and deleting remove the closed drawer's pairs in the same statement,
  and readers take only pairs of two current drawers: an edge that a vector stored at the same
  moment left to a drawer being closed is never counted.

Databases with vectors from before these edges get them once, from a whole pass
(`rebuild_pending_pairs`, migration 9).
"""

from collections.abc import Sequence
from functools import partial
from typing import Any

from graph.clock import utc_now
from graph.duplicates import (
    COSINE,
    GROWTH,
    INDEX_SCORE,
    NEIGHBOURS,
    PENDING_FLOOR,
    SCORE_DIGITS,
    SCORE_TOLERANCE,
    Scope,
    nearest_pairs,
)
from graph.queries import Dialect
from graph.store import GraphStore, Tx

BATCH = 1000


def store_vector_with_pairs(
    tx: Tx, dialect: Dialect, drawer_id: str, vector: list[float], indexed: bool
) -> int:
    """Store the drawer's pending pairs, then its vector; how many pairs. The caller holds the
    lock. `indexed`: the vector index exists (before the palace's first vector it does not, and
    then there is nothing to pair with)."""
    found = _pairs_of_vector(tx, dialect, drawer_id, vector) if indexed else {}
    if found:
        for row in tx.run("verdict_partners", id=drawer_id):
            found.pop(row["id"], None)
    pairs = [found[other] for other in sorted(found)]
    rows = tx.run(
        "replace_pending_pairs", id=drawer_id, pairs=pairs, floor=PENDING_FLOOR, now=utc_now()
    )
    # Last: should FalkorDB stop between the two, a drawer's first vector is still missing,
    # and the provider's catch-up at start stores it again, with its pairs.
    tx.run("set_drawer_embedding", id=drawer_id, vector=vector)
    return int(rows[0]["pairs"]) if rows else 0


def _pairs_of_vector(
    tx: Tx, dialect: Dialect, drawer_id: str, vector: Sequence[float]
) -> dict[str, dict[str, Any]]:
    """The pair rows by the other drawer: current drawers whose cosine with `vector` reaches
    the floor, k grown until the index's list ends below it (or holds every vector)."""
    cutoff = INDEX_SCORE[dialect](PENDING_FLOOR)
    k = NEIGHBOURS
    while True:
        rows = tx.run("nearest_to_vector", vector=list(vector), k=k, score_cutoff=cutoff)
        if len(rows) < k:
            break
        k *= GROWTH
    pairs: dict[str, dict[str, Any]] = {}
    for row in rows:
        other = row["b"]
        if not row["current"] or other is None or other == drawer_id:
            continue
        score = min(COSINE[dialect](float(row["score"])), 1.0)
        if score >= PENDING_FLOOR - SCORE_TOLERANCE:
            low, high = sorted((drawer_id, other))
            pairs[other] = {"a": low, "b": high, "score": round(score, SCORE_DIGITS)}
    return pairs


def rebuild_pending_pairs(store: GraphStore) -> int:
    """Every pending pair computed again by a whole pass over the vector index; how many were
    stored. Migration 9, and a bench that loads vectors in bulk."""
    while True:
        dropped = store.write(
            lambda tx: tx.run("drop_pending_pairs", limit=BATCH), use_case="drop_pending_pairs"
        )
        if not dropped or int(dropped[0]["dropped"]) == 0:
            break

    def listed(tx: Tx) -> tuple[list[str], set[tuple[str, str]], list[Any]]:
        everywhere = {"wing": None, "room": None, "viewer": None}
        ids = [row["id"] for row in tx.run("embedded_drawer_ids", **everywhere)]
        checked = {(row["a"], row["b"]) for row in tx.run("checked_pairs")}
        return ids, checked, tx.run("embedding_dimension")

    ids, checked, dimension = store.read(listed, use_case="pending_pairs_rebuild")
    if len(ids) < 2 or not dimension:
        return 0
    store.ensure_vector_index(int(dimension[0]["dimension"]))
    found = {
        (pair.a, pair.b): round(pair.score, SCORE_DIGITS)
        for pair in nearest_pairs(store, Scope(), ids, PENDING_FLOOR)
    }
    rows = [
        {"a": a, "b": b, "score": score}
        for (a, b), score in sorted(found.items())
        if (a, b) not in checked and (b, a) not in checked
    ]
    now = utc_now()

    def add(batch: list[dict[str, Any]], tx: Tx) -> None:
        tx.run("add_pending_pairs", pairs=batch, floor=PENDING_FLOOR, now=now)

    for start in range(0, len(rows), BATCH):
        store.write(partial(add, rows[start : start + BATCH]), use_case="add_pending_pairs")
    return len(rows)
