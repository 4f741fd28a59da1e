"""The data migrations of design §9, one function per step (`graph.schema.migrations` numbers
them, each function's docstring says which). Each is idempotent and merges nothing: it works in
batches (entities page by a cursor) until nothing is left, so a second run changes nothing.
"""

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from castlegraph.graph.backends.entity_key_params import index_props
from castlegraph.graph.backends.queries import FIRST_ENTITY_CURSOR, Dialect
from castlegraph.graph.backends.store import GraphStore, Row, Tx
from castlegraph.graph.drawers.drawer_props import drawer_index_props
from castlegraph.graph.errors import GraphQueryError
from castlegraph.graph.records import spelling_props
from castlegraph.resolver.drawers import TERMS_SCHEME
from castlegraph.resolver.entity_model import EntityView

BATCH = 1000


def _in_batches(
    store: GraphStore,
    find: str,
    write: str,
    rows_for: Callable[[list[Row]], list[dict[str, Any]]],
    **params: Any,
) -> int:
    changed = 0
    done: set[str] = set()
    while True:
        found = store.read(lambda tx: tx.run(find, limit=BATCH, **params), use_case=find)
        if not found:
            return changed
        ids = {row["id"] for row in found}
        if ids <= done:  # written, yet still found: a bug, not a reason to loop forever
            raise GraphQueryError(f"{find} keeps finding rows it already updated", sorted(ids)[:5])
        done |= ids
        rows = rows_for(found)
        store.write(partial(_write, write, rows), use_case=write)
        changed += len(rows)


def _write(name: str, rows: list[dict[str, Any]], tx: Tx) -> None:
    tx.run(name, rows=rows)


def attach_drawers_to_rooms(store: GraphStore) -> int:
    """Version 2: drawers written without the palace structure get their Wing, Room and
    HAS_* edges."""
    return _in_batches(
        store,
        "drawers_outside_palace",
        "attach_drawers_to_rooms",
        lambda rows: [{"id": row["id"], "wing": row["wing"], "room": row["room"]} for row in rows],
    )


def _drawer_key_rows(dialect: Dialect, rows: list[Row]) -> list[dict[str, Any]]:
    return [
        {
            "id": row["id"],
            "props": drawer_index_props(row["wing"], row["room"], row["content"], dialect),
        }
        for row in rows
    ]


def derive_keys(store: GraphStore) -> int:
    """Version 3: the keys this service relies on, derived for data written before them
    (drawer hashes, fingerprints, normal-form lengths and anchor terms; entity keys, alias keys
    and candidate-index keys). Duplicates that already exist stay: new sightings converge on
    the one with the lowest id, deterministically, because the rules break ties by id."""
    drawer_rows = partial(_drawer_key_rows, store.dialect)
    drawers = _in_batches(store, "drawers_without_keys", "set_drawer_keys", drawer_rows)
    return drawers + fill_entity_keys(store)


def fill_entity_keys(store: GraphStore) -> int:
    """Entities without their keys, alias keys or candidate-index keys get them, a page of
    all entities at a time (by a cursor: a search for the keyless would walk the filled ones
    again on every page, a million times a thousand of them at a million).

    Version 3 runs it, and the service before the database's entity index answers again
    after entities were written without their index keys (`GraphStore.stores_entity_keys`):
    a start with the in-memory index off, or the fallback of a failed build. Nothing else
    needs to be found: an entity holds the index keys of its current spellings or none.
    """
    filled = 0
    for page in _pages(store, _keys_page, "entity_keys_page"):
        updates = [_entity_keys(store.dialect, row) for row in page if row["keyless"]]
        if updates:
            store.write(partial(_write, "set_entity_keys", updates), use_case="set_entity_keys")
        filled += len(updates)
    return filled


def _entity_keys(dialect: Dialect, row: Row) -> dict[str, Any]:
    view = EntityView.of(row["id"], row["name"], row["kind"], row.get("aliases") or ())
    return {"id": row["id"], "props": {"key": view.key, **spelling_props(view, dialect)}}


def reindex_anchor_terms(store: GraphStore) -> int:
    """Versions 4, 7 and 11: current drawers whose terms were derived under another scheme
    (`resolver.drawers.TERMS_SCHEME`) get them again: word pairs (4), MinHash bands of
    character 5-grams beside them (7), bands in two length buckets (11); design §4.5."""
    return _in_batches(
        store,
        "drawers_with_old_terms",
        "set_drawer_keys",
        partial(_drawer_key_rows, store.dialect),
        scheme=TERMS_SCHEME,
    )


def drop_closed_drawer_terms(store: GraphStore) -> int:
    """Version 6: closed drawers leave the anchor-term index, as superseding now does."""
    return _in_batches(
        store,
        "closed_drawers_with_terms",
        "drop_drawer_terms",
        lambda rows: [{"id": row["id"]} for row in rows],
    )


def refresh_entity_index_keys(store: GraphStore) -> int:
    """Version 5: pages through every entity, reads the stored keys of those with an accent."""
    return _refresh_index_keys(store, _has_accent)


def complete_entity_index_keys(store: GraphStore) -> int:
    """Version 8: every entity of ≥ 8 code points gains its partition keys, every one with its
    words out of order the deletion keys of its sorted words (`resolver.entity_search_keys`),
    so review links are complete (design §5.4)."""
    return _refresh_index_keys(store, lambda entity: True)


def _has_accent(entity: dict[str, Any]) -> bool:
    """Keys all ASCII have no accent to fold: what version 3 stored stays right for them."""
    return not all(key.isascii() for key in (entity["key"], *(entity["alias_keys"] or ())))


def _refresh_index_keys(store: GraphStore, wanted: Callable[[dict[str, Any]], bool]) -> int:
    """Pages through every entity by a cursor; rewrites the index keys of the `wanted` ones
    whose stored keys differ from what `resolver.entity_search_keys` derives now."""
    changed = 0
    for found in _pages(store, _entities_page, "entities_page"):
        chosen = {
            entity["id"]: EntityView.of(
                entity["id"], entity["name"], entity["kind"], entity.get("aliases") or ()
            )
            for entity in (row["entity"] for row in found)
            if wanted(entity)
        }
        updates = []
        if chosen:
            for row in store.read(partial(_index_keys, list(chosen)), use_case="index_keys"):
                expected = index_props(chosen[row["id"]], store.dialect)
                if row["stored"] not in expected.values():
                    updates.append({"id": row["id"], "props": expected})
        if updates:
            store.write(partial(_write, "set_entity_keys", updates), use_case="set_entity_keys")
        changed += len(updates)
    return changed


def number_entities(store: GraphStore) -> int:
    """Version 10: entities written before the sequence get one value of it, in batches, so
    an in-memory candidate index can catch up on what changed (`graph.indexes.entity_index`)."""
    return _in_batches(
        store,
        "entities_without_seq",
        "number_entities",
        lambda rows: [{"id": row["id"]} for row in rows],
    )


def mark_unembedded(store: GraphStore) -> int:
    """Version 14: current drawers without a vector carry the mark hygiene counts from an index."""
    return _in_batches(
        store,
        "drawers_unmarked_without_embedding",
        "mark_unembedded",
        lambda rows: [{"id": row["id"]} for row in rows],
    )


def move_drawer_sequence(store: GraphStore) -> int:
    """Version 12: the drawer sequence moves from its node's properties to a relationship of
    the node (design §2.2 says why); one statement, as the sequence is one node."""
    rows = store.write(lambda tx: tx.run("move_drawer_sequence"), use_case="move_drawer_sequence")
    return int(rows[0]["moved"]) if rows else 0


def _pages(
    store: GraphStore, read_page: Callable[[int | str, Tx], list[Row]], use_case: str
) -> Iterator[list[Row]]:
    """Every entity, a page at a time after a cursor
    (`graph.backends.queries.FIRST_ENTITY_CURSOR`)."""
    after: int | str = FIRST_ENTITY_CURSOR[store.dialect]
    while page := store.read(partial(read_page, after), use_case=use_case):
        yield page
        after = page[-1]["cursor"]


def _entities_page(after: int | str, tx: Tx) -> list[Row]:
    return tx.run("entities_page", after=after, limit=BATCH)


def _keys_page(after: int | str, tx: Tx) -> list[Row]:
    return tx.run("entity_keys_page", after=after, limit=BATCH)


def _index_keys(ids: list[str], tx: Tx) -> list[Row]:
    return tx.run("entity_index_keys", ids=ids)
