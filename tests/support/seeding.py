"""Graph data written straight through the graph layer, where the API has no door for it.

`migrated_graph` opens a data directory as `castlegraph` would and closes it afterwards, so the
CLI or a service can then open the same directory (the embedded database holds a lock while
open). `insert_entity` stores an entity as resolution would, or as an older version left it.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from graph import migrations
from graph.backend import open_backend
from graph.records import Entity
from resolver.entity_model import EntityView


@contextmanager
def opened_graph(data_dir: Path) -> Iterator[Any]:
    """The store on `data_dir` as it is (no schema applied); closed on exit."""
    backend = open_backend(None, data_dir)
    try:
        yield backend.store
    finally:
        backend.close()


@contextmanager
def migrated_graph(data_dir: Path) -> Iterator[Any]:
    """The store on `data_dir` with its schema applied and every migration run; closed on exit."""
    with opened_graph(data_dir) as store:
        store.apply_schema()
        migrations.migrate(store)
        yield store


def insert_entity(store: Any, view: EntityView, created_at: str) -> None:
    """An entity node with the properties resolution gives one, created with no MERGE: nothing
    checks that its key is unique (as data written before the uniqueness constraint)."""
    props = Entity(view, created_at).to_props(store.dialect)
    store.run_text("CREATE (e:Entity) SET e = $props", {"props": props})
