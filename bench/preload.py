"""Fill a data directory (or a Neo4j server) with entities before the service starts.

Posting a million entities through `POST /api/mentions` would take longer than the benchmark
and measure the wrong thing, so they go in through `graph.entities.bulk.load_entities` (the
same derived properties resolution writes) from this process. The embedded database belongs to
one process at a time, so the loader closes it before the service opens the same directory.
"""

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import redis

from bench.names import Named
from castlegraph.graph.backends.embedded import HOST, EmbeddedFalkorDB
from castlegraph.graph.backends.falkordb_store import FalkorStore
from castlegraph.graph.backends.neo4j_store import Neo4jStore
from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.entities.bulk import load_entities
from castlegraph.graph.schema.migrations import migrate

REWRITE_TIMEOUT_SECONDS = 600.0
READY_TIMEOUT_SECONDS = 900.0
"""A service on a big preloaded graph waits for the snapshot to load (`bench.service.serving`)."""


@dataclass(frozen=True, slots=True)
class Loaded:
    entities: int
    load_seconds: float
    compact_seconds: float | None
    """The append-only file's rewrite (embedded); None on Neo4j, which has nothing to compact."""


def preload(data_dir: Path, entities: Sequence[Named]) -> Loaded:
    """Create the schema and `entities` in `data_dir`; the database is stopped afterwards.

    The load runs with `appendfsync everysec`: a bench load that dies is simply run again.
    Before closing, the append-only file is rewritten (`BGREWRITEAOF`): its base becomes an RDB
    snapshot that loads in seconds, instead of a log of every bulk statement that the service's
    database would otherwise replay at start, as slowly as the load itself.
    """
    embedded = EmbeddedFalkorDB(data_dir, fsync="everysec")
    embedded.start()
    try:
        created, load_seconds = _load(FalkorStore(HOST, embedded.port, embedded.password), entities)
        started = time.perf_counter()
        _rewrite_append_only_file(embedded)
        compact_seconds = time.perf_counter() - started
    finally:
        embedded.stop()
    return Loaded(created, load_seconds, compact_seconds)


def preload_neo4j(uri: str, user: str, password: str, entities: Sequence[Named]) -> Loaded:
    """Create the schema and `entities` on the (empty) Neo4j server at `uri`, with the same
    statements through `Neo4jStore`; nothing needs compacting there."""
    created, load_seconds = _load(Neo4jStore(uri, user, password, "neo4j"), entities)
    return Loaded(created, load_seconds, None)


def _load(store: GraphStore, entities: Sequence[Named]) -> tuple[int, float]:
    """Schema and migrations, then the entities through `load_entities`; the store is closed
    afterwards. The schema is the one the service applies by default: on FalkorDB without the
    candidate indexes its memory serves (design §5.4), so neither the load nor the service's
    start builds them. The migrations are recorded on the empty graph, as a service started on
    it first would: loaded entities are in the current form, and a service that found no
    migration recorded would page through them all at its start (two minutes at a million)."""
    try:
        store.apply_schema(memory_indexes=True)
        migrate(store)
        started = time.perf_counter()
        created = load_entities(store, ((e.name, e.kind, list(e.aliases)) for e in entities))
        return created, time.perf_counter() - started
    finally:
        store.close()


def _rewrite_append_only_file(embedded: EmbeddedFalkorDB) -> None:
    """Rewrite the append-only file once every write so far is in it, and wait for the end.

    Redis may have started a rewrite of its own while the load ran (the file doubled); that one
    may predate the last batches, so it is waited out and a fresh rewrite follows.
    """
    client = redis.Redis(host=HOST, port=embedded.port, password=embedded.password)
    deadline = time.monotonic() + REWRITE_TIMEOUT_SECONDS
    try:
        _wait_for_rewrite(client, deadline)
        while True:
            try:
                client.bgrewriteaof()
                break
            except redis.exceptions.ResponseError as error:
                if "already in progress" not in str(error):
                    raise
                _wait_for_rewrite(client, deadline)
        _wait_for_rewrite(client, deadline)
    finally:
        client.close()


def _wait_for_rewrite(client: redis.Redis, deadline: float) -> None:
    while time.monotonic() < deadline:
        info = client.info("persistence")
        if not info["aof_rewrite_in_progress"] and not info["aof_rewrite_scheduled"]:
            return
        time.sleep(0.1)
    raise RuntimeError(f"append-only file rewrite took over {REWRITE_TIMEOUT_SECONDS:.0f} s")
