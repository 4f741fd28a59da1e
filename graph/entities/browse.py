"""Pages of entities for `GET /api/entities` (design §11): those spelled like a name, of a
kind, or all of them, a page at a time after an opaque cursor.

With a name, the few entities of its key come by entity id. Browsing reads indexes, never a
scan over every entity: on Neo4j the unique index on the entity id, in its order; on FalkorDB,
whose string-index ranges read everything past the cursor, the order is the internal node id,
which a label scan walks from the cursor (all entities) or the `kind` index finds.
"""

from typing import Any

from castlegraph.graph.backends.queries import FIRST_ENTITY_CURSOR
from castlegraph.graph.backends.store import GraphStore, Tx
from castlegraph.graph.cursors import decode_cursor, encode_cursor
from castlegraph.graph.entities.entity_curation import find_entities
from castlegraph.graph.errors import InvalidCursor
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.graph.records import Entity

EntityPage = tuple[list[Entity], str | None]
"""The entities of a page and the cursor of the next one (None on the last)."""


def entities_page(
    store: GraphStore,
    *,
    name: str | None,
    kind: str | None,
    limit: int,
    cursor: str | None,
    memory: EntityIndex | None = None,
) -> EntityPage:
    """The entities spelled like `name` (its key), else those of `kind`, else all; `kind`
    narrows either way."""
    if name is not None:
        after = decode_cursor(cursor, 1)[0] if cursor else ""
        found = find_entities(store, name, kind, memory)
        page = [e for e in found if e.view.id > after][: limit + 1]
        return _paged([(e, e.view.id) for e in page], limit)
    start = _browse_start(store, cursor)

    def read(tx: Tx) -> list[tuple[Entity, Any]]:
        if kind is None:
            rows = tx.run("browse_entities", after=start, limit=limit + 1)
        else:
            rows = tx.run("browse_entities_of_kind", kind=kind, after=start, limit=limit + 1)
        return [(Entity.from_props(row), row["cursor"]) for row in rows]

    return _paged(store.read(read, use_case="browse_entities"), limit)


def _browse_start(store: GraphStore, cursor: str | None) -> int | str:
    """Where a browse resumes: an entity id on Neo4j, a node id on FalkorDB."""
    if not cursor:
        return FIRST_ENTITY_CURSOR[store.dialect]
    [after] = decode_cursor(cursor, 1)
    if store.dialect == "neo4j":
        return after
    if not after.isascii() or not after.isdigit():
        raise InvalidCursor(cursor)
    return int(after)


def _paged(found: list[tuple[Entity, Any]], limit: int) -> EntityPage:
    """`found` holds up to one entity past the page (with its cursor): if it is there, the
    page's last cursor fetches the next page."""
    page = found[:limit]
    more = len(found) > limit and bool(page)
    return [entity for entity, _ in page], encode_cursor(str(page[-1][1])) if more else None
