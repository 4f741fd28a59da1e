"""Stored first responses for `Idempotency-Key` retries, kept in the graph for 24 hours.

Keeping them in the graph (not in process memory) makes a retry after a service restart, or
on another instance behind the load balancer, replay the same answer. Every function takes the
moment it acts at (the runtime's clock), so expiry can be shown without waiting a day.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.batches import delete_in_batches

RETENTION = timedelta(hours=24)


@dataclass(frozen=True, slots=True)
class StoredResponse:
    fingerprint: str
    status: int
    body: str


def _stamp(moment: datetime) -> str:
    """As `graph.clock.utc_now` writes it: fixed-width UTC, ordered as text."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _cutoff(now: datetime) -> str:
    return _stamp(now - RETENTION)


def lookup(store: GraphStore, key: str, now: datetime) -> StoredResponse | None:
    rows = store.read(lambda tx: tx.run("idempotency_get", key=key), use_case="idempotency_get")
    if not rows or rows[0]["created_at"] < _cutoff(now):
        return None
    row = rows[0]
    return StoredResponse(row["fingerprint"], int(row["status"]), row["body"])


def remember(store: GraphStore, key: str, response: StoredResponse, now: datetime) -> None:
    store.write(
        lambda tx: tx.run(
            "idempotency_put",
            key=key,
            fingerprint=response.fingerprint,
            status=response.status,
            body=response.body,
            now=_stamp(now),
        ),
        use_case="idempotency_put",
    )


PURGE_BATCH = 1000
"""Keys deleted per transaction: a transaction's memory stays small however many expired."""


def purge_expired(store: GraphStore, now: datetime, *, batch: int = PURGE_BATCH) -> int:
    """Delete the keys older than `RETENTION`, `batch` a transaction; how many went."""
    return delete_in_batches(store, "idempotency_purge", batch=batch, cutoff=_cutoff(now))
