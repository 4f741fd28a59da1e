"""Meaning-level duplicates: every pair of a scope at or above a cosine threshold (design §6).

Read-only and exact for its scope, whatever the rest of the palace holds; pairs with a verdict
are skipped and the rest clustered. `duplicate_clusters` picks the search: the stored vector
groups at or above `PENDING_FLOOR`, all pairs in memory for a small scope, else the vector
index with a growing k. None costs the number of drawer pairs of the palace.
"""

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from castlegraph.graph.backends.queries import Dialect
from castlegraph.graph.backends.store import GraphStore, Row, Tx
from castlegraph.graph.clock import utc_now
from castlegraph.graph.drawers.palace import get_drawer
from castlegraph.graph.drawers.visibility import visible
from castlegraph.graph.errors import DrawerNotFound, DrawerSuperseded, SelfVerdict
from castlegraph.graph.locks import PENDING_PAIRS
from castlegraph.graph.records import Drawer
from castlegraph.graph.review.vector_groups import vector_hash
from castlegraph.resolver.clusters import Cluster, ScoredPair, cluster_pairs
from castlegraph.resolver.group_clusters import (
    GroupPair,
    checked_pairs_inside,
    group_clusters,
    pair_count,
)

NEIGHBOURS = 16
"""First k of the k-NN search: neighbours asked per drawer (itself included). FalkorDB counts
vectors of deleted drawers among the k until they are purged; superseded drawers lose theirs."""

GROWTH = 4
"""A drawer whose k neighbours all reach the threshold asks again with k times this."""

EXACT_SCOPE = 2000
"""A scope of at most this many drawers with vectors is compared all pairs in memory (2,000
vectors of 384 floats: 3 MB read, one 2,000 × 2,000 product)."""

EXACT_BLOCK = 512
"""Rows of the similarity matrix computed at once, so memory stays flat for any scope."""

BATCH: dict[Dialect, int] = {"falkordb": 500, "neo4j": 50}
"""Drawers per vector-index read. Neo4j answers one query in about 10 ms (FalkorDB in 0.5), so
500 of them, more with a grown k, ran past the 30-second transaction timeout at 10 k drawers."""
READERS = min(4, os.cpu_count() or 1)
"""Batches asked at once: the database answers read queries on one thread per core, and the
index search, not the client, is the cost (about half a millisecond per drawer)."""
SCORE_TOLERANCE = 1e-6
"""Vectors are stored as float32: the inclusive threshold allows this much."""
SCORE_DIGITS = 6
"""Decimals kept of a cosine computed in memory (float32 vectors carry no more)."""

PENDING_FLOOR = 0.85
"""Pairs at or above this cosine are kept as vectors arrive (`graph.review.duplicate_pairs`): the
default threshold of `find_duplicates` and hygiene. A lower threshold searches the index."""

PAIRS_LIMIT = 100
"""Pairs listed per cluster, best first: a cluster of 1,000 copies of one vector holds
499,500 pairs, and reports that number and its size, not the pairs."""

VERDICTS = ("duplicate", "supplement", "contradiction", "unrelated")

# The index's score, turned back into cosine similarity, and a cosine into the index's score.
COSINE: dict[Dialect, Callable[[float], float]] = {
    "falkordb": lambda distance: 1.0 - distance,  # cosine distance
    "neo4j": lambda score: 2.0 * score - 1.0,  # (1 + cosine) / 2
}
INDEX_SCORE: dict[Dialect, Callable[[float], float]] = {
    "falkordb": lambda cosine: 1.0 - cosine + SCORE_TOLERANCE,
    "neo4j": lambda cosine: (1.0 + cosine) / 2.0 - SCORE_TOLERANCE,
}


@dataclass(frozen=True, slots=True)
class Scope:
    wing: str | None = None
    room: str | None = None
    viewer: str | None = None
    """The agent whose token asks: drawers it may not see are outside the scope
    (`graph.drawers.visibility`), left out by the statements themselves."""


def scoped(name: str, scope: Scope) -> str:
    """The statement of `name` for the scope's shape: a wing, or a room of a wing, has its own,
    which seeks the drawers' (wing, room) index; `$wing IS NULL OR ...` kept the planner off it
    and read every drawer. A room name without its wing is asked of the whole palace."""
    if scope.wing is not None and scope.room is not None:
        return f"{name}_in_room"
    if scope.wing is not None:
        return f"{name}_in_wing"
    return name


def _checked(tx: Tx, scope: Scope) -> set[tuple[str, str]]:
    params = {"wing": scope.wing, "room": scope.room}
    return {(row["a"], row["b"]) for row in tx.run(scoped("checked_pairs", scope), **params)}


def duplicate_clusters(store: GraphStore, scope: Scope, threshold: float) -> list[Cluster]:
    """The scope's clusters at `threshold`, each with its size, its number of pairs and its
    best `PAIRS_LIMIT` pairs: from the stored vector groups at or above `PENDING_FLOOR` (the
    default threshold), else all pairs in memory up to `EXACT_SCOPE` drawers, else the index."""
    params = {"wing": scope.wing, "room": scope.room, "viewer": scope.viewer}
    if threshold >= PENDING_FLOOR:
        return _stored_clusters(store, scope, threshold)

    def listed(tx: Tx) -> tuple[list[str], set[tuple[str, str]]]:
        ids = [row["id"] for row in tx.run(scoped("embedded_drawer_ids", scope), **params)]
        return ids, _checked(tx, scope)

    ids, checked = store.read(listed, use_case="duplicate_clusters")
    if len(ids) <= EXACT_SCOPE:
        return _all_pairs(store, scope, threshold, checked)
    found = nearest_pairs(store, scope, ids, threshold)
    return cluster_pairs((pair for pair in found if (pair.a, pair.b) not in checked), PAIRS_LIMIT)


@dataclass(frozen=True, slots=True)
class _Groups:
    """The scope's drawers that have a pending pair, by vector group; the group pairs."""

    members: dict[str, list[str]]
    pairs: list[GroupPair]
    checked: set[tuple[str, str]]


def _scope_groups(tx: Tx, scope: Scope, threshold: float) -> _Groups:
    params = {"wing": scope.wing, "room": scope.room, "viewer": scope.viewer}
    pairs = [
        GroupPair(row["g"], row["h"], float(row["score"]))
        for row in tx.run("vector_group_pairs", min_score=threshold - SCORE_TOLERANCE)
    ]
    shared = {row["hash"] for row in tx.run("shared_vector_groups")}
    wanted = sorted(shared | {key for pair in pairs for key in (pair.g, pair.h)})
    members: dict[str, list[str]] = {}
    for start in range(0, len(wanted), 1000):
        batch = wanted[start : start + 1000]
        for row in tx.run("vector_group_members", hashes=batch, **params):
            members[row["hash"]] = list(row["ids"])
    return _Groups(members, pairs, _checked(tx, scope))


def _stored_clusters(store: GraphStore, scope: Scope, threshold: float) -> list[Cluster]:
    """The scope's clusters from the vector groups and their pairs (none of them decided by an
    approximate search: `graph.review.vector_groups`)."""
    found = store.read(lambda tx: _scope_groups(tx, scope, threshold), use_case="pending_pairs")
    return group_clusters(found.members, found.pairs, found.checked, PAIRS_LIMIT)


def _all_pairs(
    store: GraphStore, scope: Scope, threshold: float, checked: set[tuple[str, str]]
) -> list[Cluster]:
    """Every pair of the scope at or above the threshold, from its vectors in memory: the
    distinct vectors compared all pairs, drawers sharing one vector grouped."""
    rows = store.read(
        lambda tx: tx.run(
            scoped("scope_embeddings", scope), wing=scope.wing, room=scope.room, viewer=scope.viewer
        ),
        use_case="scope_embeddings",
    )
    members: dict[str, list[str]] = {}
    vectors: dict[str, list[float]] = {}
    for found in rows:
        key = vector_hash(found["vector"])
        members.setdefault(key, []).append(found["id"])
        vectors.setdefault(key, found["vector"])
    if len(rows) < 2:
        return []
    keys = list(vectors)
    unit = np.asarray([vectors[key] for key in keys], dtype=np.float64)
    unit /= np.linalg.norm(unit, axis=1, keepdims=True)
    pairs: list[GroupPair] = []
    for start in range(0, len(keys), EXACT_BLOCK):
        block = unit[start : start + EXACT_BLOCK] @ unit.T
        rows_at, cols_at = np.nonzero(block >= threshold - SCORE_TOLERANCE)
        for row, col in zip(rows_at.tolist(), cols_at.tolist(), strict=True):
            i = start + row
            if i < col:  # each unordered pair once, never a vector with itself
                # float32 vectors: digits past the sixth are noise that would order ties
                score = round(min(float(block[row, col]), 1.0), SCORE_DIGITS)
                pairs.append(GroupPair(keys[i], keys[col], score))
    return group_clusters(members, pairs, checked, PAIRS_LIMIT)


def nearest_pairs(
    store: GraphStore, scope: Scope, ids: list[str], threshold: float
) -> Iterable[ScoredPair]:
    """Pairs from the vector index, each drawer's k grown until its list ends below the
    threshold (or holds every vector of the palace).

    A k-NN search filtered to the scope afterwards would lose a room's pairs behind
    boilerplate repeated in other rooms, and cut a cluster whose drawers have more than k
    look-alikes; growing k costs the drawers times their look-alikes instead."""
    cosine = COSINE[store.dialect]
    search: dict[str, Any] = {
        "score_cutoff": INDEX_SCORE[store.dialect](threshold),  # filtered in the database
        "wing": scope.wing,
        "room": scope.room,
        "viewer": scope.viewer,
    }

    def nearest(k: int, batch: list[str]) -> list[Row]:
        return store.read(
            lambda tx: tx.run("nearest_drawers", ids=batch, k=k, **search),
            use_case="nearest_drawers",
        )

    pending, k = ids, NEIGHBOURS
    with ThreadPoolExecutor(READERS, thread_name_prefix="nearest") as pool:
        while pending:
            size = BATCH[store.dialect]
            batches = [pending[start : start + size] for start in range(0, len(pending), size)]
            saturated: list[str] = []
            for rows in pool.map(partial(nearest, k), batches):
                for row in rows:
                    if int(row["close"]) >= k:  # k above the palace's vectors ends it
                        saturated.append(row["a"])  # more look-alikes may lie beyond k
                        continue
                    for neighbour in row["found"]:
                        score = cosine(float(neighbour["score"]))
                        if score >= threshold - SCORE_TOLERANCE:
                            yield ScoredPair.of(row["a"], neighbour["b"], min(score, 1.0))
            pending, k = saturated, k * GROWTH


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


def judge_pair(
    store: GraphStore, a_reference: str, b_reference: str, status: str, scope: Scope
) -> tuple[str, str]:
    """Record a verdict on the drawers two references name: two different drawers, both
    current (design §11: a superseded drawer is no longer reviewed: `DrawerSuperseded`)."""
    a = resolve_drawer(store, a_reference, scope)
    b = resolve_drawer(store, b_reference, scope)
    if a.id == b.id:
        raise SelfVerdict(a.id)
    for drawer in (a, b):
        if not drawer.is_current:
            raise DrawerSuperseded(drawer.id, None, refused="judged")
    return record_verdict(store, a.id, b.id, status)


def record_verdict(store: GraphStore, a: str, b: str, status: str) -> tuple[str, str]:
    """Store the verdict once per unordered pair (smaller id first), replacing an earlier one.

    Verdicts are few (a person or an agent reviewing), so one lock serialises them: two verdicts
    on one pair at once would otherwise both find no earlier edge and leave two (Neo4j). It is
    the lock vectors take, so a vector stored at the same moment never brings the pair back as
    pending."""
    low, high = sorted((a, b))

    def record(tx: Tx) -> None:
        tx.lock(PENDING_PAIRS)
        tx.run("set_dedup_verdict", a=low, b=high, status=status, now=utc_now())

    store.write(record, use_case="record_verdict")
    return low, high


@dataclass(frozen=True, slots=True)
class Hygiene:
    duplicate_pairs_pending: int
    possibly_same_as_pending: int
    drawers_without_embedding: int


def hygiene(store: GraphStore, default_threshold: float, *, viewer: str | None = None) -> Hygiene:
    """Counts over what `viewer` may see (entities and their review links are everyone's).
    Duplicate pairs are pairs of drawers, counted from the vector groups without listing them:
    n(n-1)/2 for n current drawers sharing one vector, n·m for two paired groups, less the
    pairs with a verdict."""

    def counts(tx: Tx) -> tuple[int, int, int]:
        review = tx.run("count_pending_review_links")[0]["pending"]
        missing = tx.run("count_drawers_without_embedding", viewer=viewer)[0]["missing"]
        if default_threshold < PENDING_FLOOR:
            return 0, int(review), int(missing)
        found = _scope_groups(tx, Scope(viewer=viewer), default_threshold)
        group_of = {drawer: key for key, ids in found.members.items() for drawer in ids}
        inside = checked_pairs_inside(found.checked, group_of, found.pairs)
        counted = {key: len(ids) for key, ids in found.members.items()}
        return pair_count(counted, found.pairs, inside), int(review), int(missing)

    pairs, review, missing = store.read(counts, use_case="hygiene")
    if default_threshold < PENDING_FLOOR:  # below what is kept: a whole pass
        clusters = duplicate_clusters(store, Scope(viewer=viewer), default_threshold)
        pairs = sum(cluster.total_pairs for cluster in clusters)
    return Hygiene(pairs, review, missing)
