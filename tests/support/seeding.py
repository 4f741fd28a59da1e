"""Graph data written straight through the graph layer, where the API has no door for it.

`migrated_graph` opens a data directory as `castlegraph` would and closes it afterwards, so the
CLI or a service can then open the same directory (the embedded database holds a lock while
open). `insert_entity` stores an entity as resolution would, or as an older version left it.
"""

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from castlegraph.graph.backends.opener import Neo4jTarget, open_backend
from castlegraph.graph.records import Entity
from castlegraph.graph.review.embeddings import set_embedding
from castlegraph.graph.schema import migrations
from castlegraph.resolver.entity_model import EntityView


@contextmanager
def opened_graph(data_dir: Path, neo4j: Neo4jTarget | None = None) -> Iterator[Any]:
    """The store on `data_dir` (or on `neo4j`) as it is (no schema applied); closed on exit."""
    backend = open_backend(neo4j, data_dir)
    try:
        yield backend.store
    finally:
        backend.close()


@contextmanager
def migrated_graph(data_dir: Path, neo4j: Neo4jTarget | None = None) -> Iterator[Any]:
    """The store on `data_dir` (or on `neo4j`) with its schema applied and every migration run;
    closed on exit."""
    with opened_graph(data_dir, neo4j) as store:
        store.apply_schema()
        migrations.migrate(store)
        yield store


def insert_entity(store: Any, view: EntityView, created_at: str) -> None:
    """An entity node with the properties resolution gives one, created with no MERGE: nothing
    checks that its key is unique (as data written before the uniqueness constraint). It takes
    a value of the entity sequence, as migration 10 gives such data, so in-memory indexes of a
    running service catch up on it."""
    props = Entity(view, created_at).to_props(store.dialect)
    store.write(lambda tx: tx.run("bulk_create_entities", rows=[props]), use_case="seed")


EMBEDDED_DRAWERS = (
    "UNWIND $rows AS row CREATE (d:Drawer) SET d = row.props, d.embedding = vecf32(row.vector)"
)


def embedded_drawers(store: Any, count: int, dimension: int, seed: int = 7) -> None:
    """`count` drawers with random vectors in one room, bulk-created on FalkorDB (as
    `bench.duplicates_load` does, without numpy): heavy reads get something to chew on."""
    rng = random.Random(seed)
    rows = [
        {
            "props": {
                "id": f"seeded-{number:06d}",
                "wing": "seeded",
                "room": "vectors",
                "content": f"seeded drawer {number}",
                "content_hash": f"{number:064x}",
                "kind": "manual",
                "created_at": "2025-01-01T00:00:00.000000Z",
            },
            "vector": [rng.gauss(0.0, 1.0) for _ in range(dimension)],
        }
        for number in range(count)
    ]
    store.run_text(EMBEDDED_DRAWERS, {"rows": rows[:1]})
    set_embedding(store, "seeded-000000", rows[0]["vector"], None)  # the index and dimension
    for start in range(1, count, 500):
        store.run_text(EMBEDDED_DRAWERS, {"rows": rows[start : start + 500]})
