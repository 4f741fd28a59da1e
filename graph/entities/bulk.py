"""Bulk loading of entities that come from elsewhere (imports, benchmarks).

Each entity gets the same derived properties resolution writes (key, alias keys, candidate
index keys where the store keeps them), so it resolves exactly like one castlegraph created.
Rows go in `UNWIND` batches, one write unit each. Nothing is compared or linked: the caller
vouches for the data.
"""

import uuid
from collections.abc import Iterable, Iterator
from functools import partial
from itertools import islice

from castlegraph.graph.backends.store import GraphStore, Row, Tx
from castlegraph.graph.clock import utc_now
from castlegraph.graph.records import Entity
from castlegraph.resolver.entity_model import EntityView

BATCH = 5_000


def _chunks(items: Iterable[EntityView], size: int) -> Iterator[list[EntityView]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def _create(store: GraphStore, chunk: list[EntityView], tx: Tx) -> list[Row]:
    """The rows are made inside the write unit, where whether the store keeps the keys
    (`GraphStore.stores_entity_keys`) cannot change under them."""
    now = utc_now()
    keys = store.stores_entity_keys
    rows = [Entity(view, now).to_props(store.dialect, keys=keys) for view in chunk]
    return tx.run("bulk_create_entities", rows=rows)


def load_entities(store: GraphStore, entities: Iterable[tuple[str, str, list[str]]]) -> int:
    """Create entities from (name, kind, aliases); returns how many were created.

    Names and aliases are trimmed, as the API trims every name it is given: FalkorDB's server
    process dies when a name with a trailing space goes under the (kind, name) constraint.
    """
    views = (
        EntityView.of(str(uuid.uuid4()), name.strip(), kind, [a.strip() for a in aliases])
        for name, kind, aliases in entities
    )
    created = 0
    for chunk in _chunks(views, BATCH):
        result = store.write(partial(_create, store, chunk), use_case="bulk_load")
        created += int(result[0]["created"]) if result else 0
    return created
