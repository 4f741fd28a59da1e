"""Drawer embeddings and the vector index that serves them (design §6).

The dimension is the configured one, or else fixed by the first vector stored (kept in
`(:Meta {name: 'embeddings'})`); the index is created once it is known. Vectors are checked
before they reach the database: FalkorDB would silently accept one of another length. Storing a
vector also files it in its group, with its pending pairs, in the same write unit.
"""

from collections.abc import Sequence

import numpy as np

from castlegraph.graph.backends.store import GraphStore, Tx
from castlegraph.graph.drawers.palace import get_drawer
from castlegraph.graph.errors import InvalidVector
from castlegraph.graph.locks import PENDING_PAIRS
from castlegraph.graph.review.duplicate_pairs import store_vector_with_pairs
from castlegraph.graph.review.vector_groups import table_of
from castlegraph.resolver.errors import CastlegraphError

EMBEDDINGS_LOCK = PENDING_PAIRS


class _FirstVectorRace(CastlegraphError):
    """Another palace-first vector was stored meanwhile: its index must exist before ours
    searches it, so the write starts again (caught by `set_embedding`, never seen outside)."""

    def __init__(self) -> None:
        super().__init__("another palace-first vector was stored meanwhile")


def check_vector(vector: Sequence[float], dimension: int | None) -> None:
    """Judged as stored, in float32, where a cosine is computed: `1e308` is infinite there,
    `5e-324` is zero, and the squared norm of `[3e38, 3e38]` or `[1e-30]` overflows or vanishes,
    so a vector fine in float64 may still be one no cosine can be computed with."""
    if not vector:
        raise InvalidVector("the vector is empty")
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        stored = np.asarray(vector, dtype=np.float64).astype(np.float32)
        squared_norm = float(np.dot(stored, stored))
    if not (np.isfinite(stored).all() and np.isfinite(squared_norm)):
        raise InvalidVector(
            "the vector holds NaN or infinite values, or values too large for float32, "
            "which vectors are stored as"
        )
    if squared_norm == 0:
        raise InvalidVector(
            "the vector has zero norm in float32, which vectors are stored as: "
            "it has no direction to compare"
        )
    if dimension is not None and len(vector) != dimension:
        raise InvalidVector(
            f"the vector has {len(vector)} dimensions; this palace's embeddings have {dimension}",
            {"dimension": dimension, "length": len(vector)},
        )


def stored_dimension(store: GraphStore) -> int | None:
    rows = store.read(lambda tx: tx.run("embedding_dimension"), use_case="embedding_dimension")
    return int(rows[0]["dimension"]) if rows else None


def set_embedding(
    store: GraphStore,
    drawer_id: str,
    vector: Sequence[float],
    configured: int | None,
    *,
    viewer: str | None = None,
) -> int:
    """Store a drawer's vector; returns the palace's dimension. A drawer `viewer` may not see
    is unknown (kind and agent never change, so checking first is enough)."""
    get_drawer(store, drawer_id, viewer=viewer)  # `DrawerNotFound` before any vector complaint
    check_vector(vector, configured)
    values = [float(x) for x in vector]
    try:
        dimension = _store_vector(store, drawer_id, values)
    except _FirstVectorRace:  # the second attempt knows the dimension
        dimension = _store_vector(store, drawer_id, values)
    store.ensure_vector_index(dimension)
    return dimension


def _store_vector(store: GraphStore, drawer_id: str, values: list[float]) -> int:
    known = stored_dimension(store)
    if known is not None:
        check_vector(values, known)
        store.ensure_vector_index(known)
    table = table_of(store)

    def work(tx: Tx) -> int:
        tx.lock(EMBEDDINGS_LOCK)
        rows = tx.run("embedding_dimension")
        dimension = int(rows[0]["dimension"]) if rows else None
        if dimension is not None and known is None:
            raise _FirstVectorRace
        check_vector(values, dimension)
        if dimension is None:
            dimension = len(values)
            tx.run("fix_embedding_dimension", dimension=dimension)
        store_vector_with_pairs(tx, table, drawer_id, values)
        return dimension

    return store.write(work, use_case="set_embedding")


def missing_embeddings(store: GraphStore, limit: int = 100_000) -> list[str]:
    """Current drawers that have no vector yet (the provider's backlog at start)."""
    rows = store.read(
        lambda tx: tx.run("drawers_missing_embedding", limit=limit), use_case="missing_embeddings"
    )
    return [row["id"] for row in rows]
