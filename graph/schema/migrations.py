"""Versioned migrations, recorded in the graph as `(:Migration {version})` (design §9).

They run before the service serves, under a lease so that several instances on one Neo4j do
not run them twice, and each is idempotent: a second run changes nothing. The lease is timed
on the database's clock and renewed while the migrations run (a migration of a large graph can
outlast it), so a live starter keeps it and a dead one's runs out. A failure stops the start-up
instead of serving a half-migrated graph.
"""

import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from castlegraph.graph.backends.store import GraphStore, Tx
from castlegraph.graph.clock import utc_now
from castlegraph.graph.errors import MigrationFailed
from castlegraph.graph.review.duplicate_pairs import rebuild_pending_pairs
from castlegraph.graph.schema.migration_steps import (
    attach_drawers_to_rooms,
    complete_entity_index_keys,
    derive_keys,
    drop_closed_drawer_terms,
    mark_unembedded,
    move_drawer_sequence,
    number_entities,
    refresh_entity_index_keys,
    reindex_anchor_terms,
)
from castlegraph.resolver.errors import CastlegraphError

log = logging.getLogger("castlegraph.migrations")
LEASE = "migrations"
LEASE_SECONDS = 600.0
"""How long the lease holds without renewal: a starter that died hands the migrations over
after this."""
RENEWALS_PER_LEASE = 10
LEASE_WAIT_SECONDS = 120.0


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    apply: Callable[[GraphStore], int]
    """Does the work and returns how many nodes or edges it changed."""


@dataclass(frozen=True, slots=True)
class AppliedMigration:
    version: int
    name: str
    applied_at: str
    changed: int


def _baseline(store: GraphStore) -> int:
    """Version 1: the schema applied at start-up is the whole of the first version."""
    return 0


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "baseline schema", _baseline),
    Migration(2, "palace structure for drawers written without it", attach_drawers_to_rooms),
    Migration(3, "derived keys: fingerprints, entity keys, alias keys, index keys", derive_keys),
    Migration(4, "drawer anchor terms from word pairs", reindex_anchor_terms),
    Migration(5, "entity index keys with accent-folded forms", refresh_entity_index_keys),
    Migration(6, "closed drawers leave the anchor-term index", drop_closed_drawer_terms),
    Migration(7, "drawer index terms with 5-gram bands", reindex_anchor_terms),
    Migration(8, "entity index keys for complete review links", complete_entity_index_keys),
    Migration(9, "pending duplicate pairs of the vectors stored so far", rebuild_pending_pairs),
    Migration(10, "entity sequence for the in-memory candidate index", number_entities),
    Migration(11, "drawer bands in two length buckets, looked up in one", reindex_anchor_terms),
    Migration(12, "drawer sequence kept on a relationship of its node", move_drawer_sequence),
    Migration(13, "identical vectors as groups, their pairs found exactly", rebuild_pending_pairs),
    Migration(14, "drawers waiting for a vector marked, counted from an index", mark_unembedded),
)


def applied(store: GraphStore) -> list[AppliedMigration]:
    rows = store.read(lambda tx: tx.run("applied_migrations"), use_case="applied_migrations")
    return [
        AppliedMigration(row["version"], row["name"], row["applied_at"], row["changed"] or 0)
        for row in rows
    ]


def pending(store: GraphStore) -> list[Migration]:
    done = {migration.version for migration in applied(store)}
    return [migration for migration in MIGRATIONS if migration.version not in done]


def status(store: GraphStore) -> dict[str, list[dict[str, Any]]]:
    """What `migrate --status` and `GET /api/migrations` show: applied and pending, as JSON."""
    return {
        "applied": [asdict(migration) for migration in applied(store)],
        "pending": [{"version": m.version, "name": m.name} for m in pending(store)],
    }


def migrate(store: GraphStore) -> list[AppliedMigration]:
    """Apply every pending migration in order; returns what this call applied."""
    holder = str(uuid.uuid4())
    _acquire(store, holder)
    try:
        with _renewing(store, holder) as lost:
            return _apply_pending(store, lost)
    finally:
        store.write(
            lambda tx: tx.run("release_lease", name=LEASE, holder=holder), use_case="release_lease"
        )


def _apply_pending(store: GraphStore, lost: threading.Event) -> list[AppliedMigration]:
    """Apply the pending migrations in order, stopping before the next one if the lease was
    lost (`lost`): another starter may be running them."""
    results: list[AppliedMigration] = []
    for migration in pending(store):
        if lost.is_set():
            raise MigrationFailed("the migration lease was lost to another starter")
        try:
            changed = migration.apply(store)
        except Exception as error:
            raise MigrationFailed(
                f"migration {migration.version} ({migration.name}) failed: {error}",
                {"version": migration.version},
            ) from error
        record = AppliedMigration(migration.version, migration.name, utc_now(), changed)
        store.write(partial(_record, record), use_case="record_migration")
        results.append(record)
    return results


def _record(record: AppliedMigration, tx: Tx) -> None:
    tx.run(
        "record_migration",
        version=record.version,
        name=record.name,
        now=record.applied_at,
        changed=record.changed,
    )


def _take_lease(holder: str, tx: Tx) -> bool:
    """Lock first, then read: on Neo4j a MERGE that finds the lease's node takes no lock, so two
    starters would both read it free; the lock makes the second wait for the first's commit."""
    tx.lock(LEASE)
    rows = tx.run("acquire_lease", name=LEASE, holder=holder, ms=_lease_ms())
    return bool(rows and rows[0]["acquired"])


def _lease_ms() -> int:
    return int(LEASE_SECONDS * 1000)


def _renew_lease(store: GraphStore, holder: str) -> bool:
    rows = store.write(
        lambda tx: tx.run("renew_lease", name=LEASE, holder=holder, ms=_lease_ms()),
        use_case="renew_lease",
    )
    return bool(rows)


@contextmanager
def _renewing(store: GraphStore, holder: str) -> Iterator[threading.Event]:
    """Renew the lease `RENEWALS_PER_LEASE` times a lease while the block runs: one migration
    of a large graph can outlast `LEASE_SECONDS`, and a lease run out would let a second
    starter run the migrations at the same time. A renewal that fails is logged and tried again
    at the next beat: the lease still holds for the beats left. Yields an event set when the
    lease was found taken by another starter."""
    done, lost = threading.Event(), threading.Event()

    def beat() -> None:
        while not done.wait(LEASE_SECONDS / RENEWALS_PER_LEASE):
            try:
                if not _renew_lease(store, holder):
                    lost.set()
                    return
            except CastlegraphError as error:
                log.warning("renewing the migration lease failed: %s", error)

    thread = threading.Thread(target=beat, name="migration-lease", daemon=True)
    thread.start()
    try:
        yield lost
    finally:
        done.set()
        thread.join()


def _acquire(store: GraphStore, holder: str) -> None:
    deadline = time.monotonic() + LEASE_WAIT_SECONDS
    while True:
        if store.write(partial(_take_lease, holder), use_case="acquire_lease"):
            return
        if time.monotonic() > deadline:
            raise MigrationFailed("another instance has held the migration lease for too long")
        time.sleep(0.5)
