"""Stored first responses for `Idempotency-Key` retries, kept in the graph for 24 hours.

Each use case takes the time it runs at (`now`, default the clock's) so the retention can be
checked without waiting a day.

Keeping them in the graph (not in process memory) makes a retry after a service restart, or
on another instance behind the load balancer, replay the same answer.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from graph.clock import utc_now
from graph.store import GraphStore

RETENTION = timedelta(hours=24)


@dataclass(frozen=True, slots=True)
class StoredResponse:
    fingerprint: str
    status: int
    body: str


STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"


def _cutoff(now: datetime | None) -> str:
    return ((now or datetime.now(UTC)) - RETENTION).strftime(STAMP)


def lookup(store: GraphStore, key: str, *, now: datetime | None = None) -> StoredResponse | None:
    rows = store.read(lambda tx: tx.run("idempotency_get", key=key), use_case="idempotency_get")
    if not rows or rows[0]["created_at"] < _cutoff(now):
        return None
    row = rows[0]
    return StoredResponse(row["fingerprint"], int(row["status"]), row["body"])


def remember(
    store: GraphStore, key: str, response: StoredResponse, *, now: datetime | None = None
) -> None:
    store.write(
        lambda tx: tx.run(
            "idempotency_put",
            key=key,
            fingerprint=response.fingerprint,
            status=response.status,
            body=response.body,
            now=now.strftime(STAMP) if now else utc_now(),
        ),
        use_case="idempotency_put",
    )


def purge_expired(store: GraphStore, *, now: datetime | None = None) -> int:
    rows = store.write(
        lambda tx: tx.run("idempotency_purge", cutoff=_cutoff(now)), use_case="idempotency_purge"
    )
    return int(rows[0]["purged"]) if rows else 0
