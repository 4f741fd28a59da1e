"""Pages of entities for `GET /api/entities` (design §11): those spelled like a name, of a
kind, or all of them, each by entity id after an opaque cursor.

Browsing reads the unique index on the entity id (and the index on `kind`), so a page costs
what the entities after the cursor cost, never a scan over every entity.
"""

from castlegraph.graph.backends.store import GraphStore, Tx
from castlegraph.graph.cursors import decode_cursor, encode_cursor
from castlegraph.graph.entities.entity_curation import find_entities
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
    after = decode_cursor(cursor, 1)[0] if cursor else ""
    if name is not None:
        found = find_entities(store, name, kind, memory)
        return _paged([e for e in found if e.view.id > after][: limit + 1], limit)

    def read(tx: Tx) -> list[Entity]:
        if kind is None:
            rows = tx.run("entities_by_id_page", after=after, limit=limit + 1)
        else:
            rows = tx.run("entities_of_kind_page", kind=kind, after=after, limit=limit + 1)
        return [Entity.from_props(row) for row in rows]

    return _paged(store.read(read, use_case="browse_entities"), limit)


def _paged(found: list[Entity], limit: int) -> EntityPage:
    """`found` holds up to one entity past the page: there is a next page when it is there."""
    page = found[:limit]
    more = len(found) > limit and bool(page)
    return page, encode_cursor(page[-1].view.id) if more else None
