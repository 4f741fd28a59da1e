"""The data migrations (DESIGN §9). Each is idempotent and merges nothing.

- 2: drawers written without the palace structure get their Wing, Room and HAS_* edges.
- 3: keys this service relies on, derived for data written before them: drawer hashes,
  fingerprints, normal-form lengths and anchor terms; entity keys, alias keys and the
  candidate-index keys. Duplicates that already exist stay: new sightings converge on the one
  with the lowest id, deterministically, because the rules break ties by id.
- 4: anchor terms of drawers indexed under an older scheme (single words) re-derived as word
  pairs (`resolver.drawers.TERMS_SCHEME`).
- 5: candidate-index keys of entities recomputed where they differ from what this version
  stores (the accent-folded keys, `graph.entity_index`), one page of all entities at a time.

Each works in batches until a lookup finds nothing left, so a second run changes nothing.
"""

from collections.abc import Callable
from functools import partial
from typing import Any

from graph.drawers import drawer_index_props
from graph.entity_index import index_props
from graph.errors import GraphQueryError
from graph.store import GraphStore, Row, Tx
from resolver.drawers import TERMS_SCHEME
from resolver.entity_model import EntityView

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
    """Version 2."""
    return _in_batches(
        store,
        "drawers_outside_palace",
        "attach_drawers_to_rooms",
        lambda rows: [{"id": row["id"], "wing": row["wing"], "room": row["room"]} for row in rows],
    )


def _drawer_key_rows(rows: list[Row]) -> list[dict[str, Any]]:
    return [
        {"id": row["id"], "props": drawer_index_props(row["wing"], row["room"], row["content"])}
        for row in rows
    ]


def derive_keys(store: GraphStore) -> int:
    """Version 3."""
    drawers = _in_batches(store, "drawers_without_keys", "set_drawer_keys", _drawer_key_rows)

    def entity_rows(rows: list[Row]) -> list[dict[str, Any]]:
        updates = []
        for row in rows:
            view = EntityView.of(row["id"], row["name"], row["kind"], row.get("aliases") or ())
            props = {
                "key": view.key,
                "alias_keys": list(view.alias_keys),
                "aliases": list(view.aliases),
                **index_props(view, store.dialect),
            }
            updates.append({"id": row["id"], "props": props})
        return updates

    return drawers + _in_batches(store, "entities_without_keys", "set_entity_keys", entity_rows)


def reindex_anchor_terms(store: GraphStore) -> int:
    """Version 4."""
    return _in_batches(
        store,
        "drawers_with_old_terms",
        "set_drawer_keys",
        _drawer_key_rows,
        scheme=TERMS_SCHEME,
    )


def refresh_entity_index_keys(store: GraphStore) -> int:
    """Version 5."""
    changed = 0
    page: dict[str, Any] = {"skip": 0, "after": ""}  # FalkorDB pages by skip, Neo4j by id
    while True:
        found = store.read(partial(_entities_page, page), use_case="entities_page")
        if not found:
            return changed
        updates = []
        for row in found:
            entity = row["entity"]
            aliases = entity.get("aliases") or ()
            view = EntityView.of(entity["id"], entity["name"], entity["kind"], aliases)
            expected = index_props(view, store.dialect)
            if any(entity.get(name) != value for name, value in expected.items()):
                updates.append({"id": view.id, "props": expected})
        if updates:
            store.write(partial(_write, "set_entity_keys", updates), use_case="set_entity_keys")
        changed += len(updates)
        page = {"skip": page["skip"] + len(found), "after": found[-1]["entity"]["id"]}


def _entities_page(page: dict[str, Any], tx: Tx) -> list[Row]:
    return tx.run("entities_page", limit=BATCH, **page)
