"""Fill a data directory with entities before the service starts.

Posting a million entities through `POST /api/mentions` would take longer than the benchmark
itself and measure the wrong thing, so entities go in through `graph.bulk.load_entities` (the
same derived properties resolution writes) on an embedded FalkorDB opened in this process on
the benchmark's data directory. The embedded database belongs to one process at a time (its
lock file), so the loader closes it before the service opens the same directory.

Before closing, the append-only file is rewritten (`BGREWRITEAOF`): its base becomes an RDB
snapshot that loads in seconds, instead of a log of every bulk statement that the service's
database would otherwise replay at start-up — as slowly as the load itself.
"""

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import redis

from bench.names import Named
from graph.bulk import load_entities
from graph.embedded import HOST, EmbeddedFalkorDB
from graph.falkordb_store import FalkorStore

REWRITE_TIMEOUT_SECONDS = 600.0
READY_TIMEOUT_SECONDS = 900.0
"""A service on a big preloaded graph waits for the snapshot to load (`bench.service.serving`)."""


@dataclass(frozen=True, slots=True)
class Loaded:
    entities: int
    load_seconds: float
    compact_seconds: float


def preload(data_dir: Path, entities: Sequence[Named]) -> Loaded:
    """Create the schema and `entities` in `data_dir`; the database is stopped afterwards.

    The load runs with `appendfsync everysec`: a bench load that dies is simply run again.
    """
    embedded = EmbeddedFalkorDB(data_dir, fsync="everysec")
    embedded.start()
    try:
        store = FalkorStore(HOST, embedded.port, embedded.password)
        try:
            store.apply_schema()
            started = time.perf_counter()
            rows = ((e.name, e.kind, list(e.aliases)) for e in entities)
            created = load_entities(store, rows)
            load_seconds = time.perf_counter() - started
        finally:
            store.close()
        started = time.perf_counter()
        _rewrite_append_only_file(embedded)
        compact_seconds = time.perf_counter() - started
    finally:
        embedded.stop()
    return Loaded(created, load_seconds, compact_seconds)


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
