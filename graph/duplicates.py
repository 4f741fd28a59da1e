"""Meaning-level duplicates: k-nearest-neighbour search on the vector index (design §6).

Read-only. Every current drawer in scope asks the index for its k nearest neighbours (in
batches, one statement each, a few batches at once), pairs at or above the threshold are kept
unless a verdict was recorded for them, and union-find groups them into clusters. Cost grows
with the number of drawers times k, never with the number of pairs.
"""

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from graph.clock import utc_now
from graph.drawers import get_drawer
from graph.errors import DrawerNotFound
from graph.queries import Dialect
from graph.records import Drawer
from graph.store import GraphStore, Row, Tx
from graph.visibility import visible
from resolver.clusters import Cluster, ScoredPair, cluster_pairs

NEIGHBOURS = 16
"""k of the k-NN search: neighbours asked per drawer (itself included). A drawer with more
look-alikes than this still joins their cluster through its neighbours. FalkorDB counts vectors
of deleted drawers among the k until they are purged; superseded drawers lose their vector."""

BATCH = 500
READERS = min(4, os.cpu_count() or 1)
"""Batches asked at once: the database answers read queries on one thread per core, and the
index search, not the client, is the cost (about half a millisecond per drawer)."""
SCORE_TOLERANCE = 1e-6
"""Vectors are stored as float32: the inclusive threshold allows this much."""

VERDICTS = ("duplicate", "supplement", "contradiction", "unrelated")
VERDICT_LOCK = "dedup_verdicts"

# The index's score, turned back into cosine similarity, and a cosine into the index's score.
_COSINE: dict[Dialect, Callable[[float], float]] = {
    "falkordb": lambda distance: 1.0 - distance,  # cosine distance
    "neo4j": lambda score: 2.0 * score - 1.0,  # (1 + cosine) / 2
}
_INDEX_SCORE: dict[Dialect, Callable[[float], float]] = {
    "falkordb": lambda cosine: 1.0 - cosine + SCORE_TOLERANCE,
    "neo4j": lambda cosine: (1.0 + cosine) / 2.0 - SCORE_TOLERANCE,
}


@dataclass(frozen=True, slots=True)
class Scope:
    wing: str | None = None
    room: str | None = None
    viewer: str | None = None
    """The agent whose token asks: drawers it may not see are outside the scope
    (`graph.visibility`), left out by the statements themselves."""


def _checked(tx: Tx) -> set[tuple[str, str]]:
    return {(row["a"], row["b"]) for row in tx.run("checked_pairs")}


def duplicate_clusters(store: GraphStore, scope: Scope, threshold: float) -> list[Cluster]:
    cosine = _COSINE[store.dialect]
    params = {"wing": scope.wing, "room": scope.room, "viewer": scope.viewer}
    search: dict[str, Any] = {
        "k": NEIGHBOURS,
        "score_cutoff": _INDEX_SCORE[store.dialect](threshold),  # filtered in the database
        **params,
    }

    def listed(tx: Tx) -> tuple[list[str], set[tuple[str, str]]]:
        ids = [row["id"] for row in tx.run("embedded_drawer_ids", **params)]
        return ids, _checked(tx)

    def nearest(batch: list[str]) -> list[Row]:
        return store.read(
            lambda tx: tx.run("nearest_drawers", ids=batch, **search), use_case="nearest_drawers"
        )

    ids, checked = store.read(listed, use_case="duplicate_clusters")
    batches = [ids[start : start + BATCH] for start in range(0, len(ids), BATCH)]
    pairs: list[ScoredPair] = []
    with ThreadPoolExecutor(READERS, thread_name_prefix="nearest") as pool:
        for rows in pool.map(nearest, batches):
            for row in rows:
                score = cosine(float(row["score"]))
                pair = ScoredPair.of(row["a"], row["b"], min(score, 1.0))
                if score >= threshold - SCORE_TOLERANCE and (pair.a, pair.b) not in checked:
                    pairs.append(pair)
    return cluster_pairs(pairs)


def resolve_drawer(store: GraphStore, reference: str, scope: Scope) -> Drawer:
    """A drawer by id, or by name among the current drawers of the scope's room, that the
    scope's viewer may see."""
    try:
        return get_drawer(store, reference, viewer=scope.viewer)
    except DrawerNotFound:
        if scope.wing is None or scope.room is None:
            raise
    rows = store.read(
        lambda tx: tx.run(
            "current_drawers_by_name", wing=scope.wing, room=scope.room, name=reference
        ),
        use_case="drawer_by_name",
    )
    shown = [Drawer.from_props(row["drawer"]) for row in rows]
    shown = [drawer for drawer in shown if visible(drawer.kind, drawer.agent, scope.viewer)]
    if not shown:
        raise DrawerNotFound(reference)
    return shown[0]


def record_verdict(store: GraphStore, a: str, b: str, status: str) -> tuple[str, str]:
    """Store the verdict once per unordered pair (smaller id first), replacing an earlier one.

    Verdicts are few (a person or an agent reviewing), so one lock serialises them: two verdicts
    on one pair at once would otherwise both find no earlier edge and leave two (Neo4j)."""
    low, high = sorted((a, b))

    def record(tx: Tx) -> None:
        tx.lock(VERDICT_LOCK)
        tx.run("set_dedup_verdict", a=low, b=high, status=status, now=utc_now())

    store.write(record, use_case="record_verdict")
    return low, high


@dataclass(frozen=True, slots=True)
class Hygiene:
    duplicate_pairs_pending: int
    possibly_same_as_pending: int
    drawers_without_embedding: int


def hygiene(store: GraphStore, default_threshold: float, *, viewer: str | None = None) -> Hygiene:
    """Counts over what `viewer` may see (entities and their review links are everyone's)."""
    clusters = duplicate_clusters(store, Scope(viewer=viewer), default_threshold)

    def counts(tx: Tx) -> tuple[int, int]:
        review = tx.run("count_pending_review_links")[0]["pending"]
        missing = tx.run("count_drawers_without_embedding", viewer=viewer)[0]["missing"]
        return int(review), int(missing)

    review, missing = store.read(counts, use_case="hygiene")
    return Hygiene(sum(len(c.pairs) for c in clusters), review, missing)
