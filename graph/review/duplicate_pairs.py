"""Pending duplicate pairs, kept up to date as vectors arrive (design §6).

Each stored vector joins its group (`graph.review.vector_groups`); a new vector's group gets a
`NEAR_VECTOR` edge to every group at or above `PENDING_FLOOR`. Readers count or cluster the
pending pairs from the groups (`graph.review.duplicates`), so their cost follows the groups,
not the palace. The groups are review bookkeeping, not knowledge: no export carries them.
"""

from functools import partial
from typing import Any

import numpy as np

from castlegraph.graph.backends.store import GraphStore, Tx
from castlegraph.graph.review.duplicates import (
    EXACT_BLOCK,
    PENDING_FLOOR,
    SCORE_DIGITS,
    SCORE_TOLERANCE,
)
from castlegraph.graph.review.vector_groups import (
    FLOOR_MARGIN,
    VectorTable,
    exact_cosines,
    packed,
    vector_hash,
)

BATCH = 1000


def store_vector_with_pairs(tx: Tx, table: VectorTable, drawer_id: str, vector: list[float]) -> int:
    """Store the drawer's vector in its group, creating the group (and its pairs with every
    other group) when the vector is new; how many group pairs were created.

    The caller holds `graph.locks.PENDING_PAIRS`, under which every vector and every new group
    is stored, so of two vectors stored at once the second sees the first's group. The pairs
    come from an exact comparison with every group's vector, never an approximate index's k
    nearest neighbours. Superseding and retiring take a closed drawer out of its group, and
    drop its verdicts, in the statement that closes it.
    """
    stored = np.asarray(vector, dtype=np.float32).tolist()  # what the database keeps
    key = vector_hash(stored)
    created = 0
    if tx.run("vector_group_exists", hash=key):
        tx.run("mark_vector_group_shared", hash=key)
    else:
        table.catch_up(tx)
        near = table.near(stored, PENDING_FLOOR - SCORE_TOLERANCE)
        pairs = [
            {"hash": other, "score": round(score, SCORE_DIGITS)}
            for other, score in sorted(near)
            if other != key
        ]
        rows = tx.run(
            "create_vector_group", hash=key, vector=packed(stored), pairs=pairs, floor=PENDING_FLOOR
        )
        created = int(rows[0]["pairs"]) if rows else 0
    # Last, with the drawer joining the group: should FalkorDB stop between the two, a
    # drawer's first vector is still missing, and the provider's catch-up at start stores it
    # again.
    tx.run("set_drawer_embedding", id=drawer_id, vector=vector, hash=key)
    return created


def _drop(store: GraphStore, statement: str) -> None:
    while True:
        dropped = store.write(
            lambda tx: tx.run(statement, limit=BATCH), use_case="drop_pending_pairs"
        )
        if not dropped or int(dropped[0]["dropped"]) == 0:
            return


def _run(statement: str, params: dict[str, Any], tx: Tx) -> list[Any]:
    return tx.run(statement, **params)


def rebuild_pending_pairs(store: GraphStore) -> int:
    """Every vector group and group pair computed again by one all-pairs pass over the
    distinct vectors of the current drawers; how many group pairs were stored. Migrations 9
    and 13 (drawer pairs from the vector index before), and a bench that loads vectors in
    bulk. The groups' counter moves on, so every table of vectors takes the new groups in."""
    for statement in ("drop_pending_pairs", "drop_vector_groups", "drop_drawer_vector_hashes"):
        _drop(store, statement)

    def listed(tx: Tx) -> list[Any]:
        everywhere = {"wing": None, "room": None, "viewer": None}
        return tx.run("scope_embeddings", **everywhere)

    rows = store.read(listed, use_case="pending_pairs_rebuild")
    groups: dict[str, list[float]] = {}
    members = []
    shared: set[str] = set()
    for row in rows:
        vector = np.asarray(row["vector"], dtype=np.float32).tolist()
        key = vector_hash(vector)
        if key in groups:
            shared.add(key)
        groups.setdefault(key, vector)
        members.append({"id": row["id"], "hash": key})
    if not groups:
        return 0
    keys = sorted(groups)
    for start in range(0, len(keys), BATCH):
        batch = [
            {"hash": key, "vector": packed(groups[key]), "n": n, "shared": key in shared}
            for n, key in enumerate(keys[start : start + BATCH], start=1)
        ]
        store.write(partial(_run, "create_vector_groups", {"groups": batch}), use_case="groups")
    for start in range(0, len(members), BATCH):
        chunk = {"rows": members[start : start + BATCH]}
        store.write(partial(_run, "join_vector_groups", chunk), use_case="groups")
    pairs = group_pairs(keys, np.asarray([groups[key] for key in keys], dtype=np.float32))

    def add(batch: list[dict[str, Any]], tx: Tx) -> None:
        tx.run("add_vector_group_pairs", pairs=batch, floor=PENDING_FLOOR)

    for start in range(0, len(pairs), BATCH):
        store.write(partial(add, pairs[start : start + BATCH]), use_case="add_pending_pairs")
    return len(pairs)


def group_pairs(keys: list[str], vectors: np.ndarray[Any, Any]) -> list[dict[str, Any]]:
    """Every pair of distinct vectors at or above the floor, by blocks of rows against the rows
    after them: float32 products propose (`FLOOR_MARGIN` below the floor), and each proposed
    pair is scored again as the all-pairs comparison scores it (float64 unit vectors)."""
    rows = vectors.astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    found = []
    for start in range(0, len(keys), EXACT_BLOCK):
        block = rows[start : start + EXACT_BLOCK] @ rows[start:].T
        rows_at, cols_at = np.nonzero(block >= PENDING_FLOOR - FLOOR_MARGIN)
        for row, col in zip(rows_at.tolist(), cols_at.tolist(), strict=True):
            if col <= row:
                continue
            i, j = start + row, start + col
            score = float(exact_cosines(vectors[j : j + 1], vectors[i])[0])
            if score >= PENDING_FLOOR - SCORE_TOLERANCE:
                found.append({"g": keys[i], "h": keys[j], "score": round(score, SCORE_DIGITS)})
    return found
