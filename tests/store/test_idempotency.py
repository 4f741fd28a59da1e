"""Stored `Idempotency-Key` answers are kept 24 hours, then neither replayed nor kept."""

from datetime import UTC, datetime, timedelta
from typing import Any

from castlegraph.graph import idempotency
from castlegraph.graph.idempotency import RETENTION, StoredResponse

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ANSWER = StoredResponse("fingerprint", 201, '{"drawer": {}}')
JUST = timedelta(microseconds=1)


def test_an_answer_is_replayed_for_24_hours_and_not_after(store: Any) -> None:
    idempotency.remember(store, "k", ANSWER, now=T0)
    assert idempotency.lookup(store, "k", now=T0) == ANSWER
    assert idempotency.lookup(store, "k", now=T0 + RETENTION) == ANSWER  # the last instant
    assert idempotency.lookup(store, "k", now=T0 + RETENTION + JUST) is None
    assert timedelta(hours=24) == RETENTION


def test_the_purge_removes_only_answers_older_than_24_hours(store: Any) -> None:
    idempotency.remember(store, "old", ANSWER, now=T0)
    idempotency.remember(store, "new", ANSWER, now=T0 + timedelta(hours=1))
    assert idempotency.purge_expired(store, now=T0 + RETENTION) == 0
    assert idempotency.purge_expired(store, now=T0 + RETENTION + JUST) == 1
    assert idempotency.lookup(store, "old", now=T0) is None  # gone, not merely expired
    assert idempotency.lookup(store, "new", now=T0 + RETENTION) == ANSWER


def test_a_key_written_again_after_expiry_starts_a_new_day(store: Any) -> None:
    idempotency.remember(store, "k", ANSWER, now=T0)
    later = T0 + RETENTION + timedelta(hours=1)
    replaced = StoredResponse("another", 200, "{}")
    idempotency.remember(store, "k", replaced, now=later)
    assert idempotency.lookup(store, "k", now=later + timedelta(hours=23)) == replaced


def test_the_purge_deletes_in_bounded_batches_until_none_is_left(store: Any) -> None:
    for n in range(7):
        idempotency.remember(store, f"old-{n}", ANSWER, now=T0)
    idempotency.remember(store, "new", ANSWER, now=T0 + timedelta(hours=2))
    later = T0 + RETENTION + timedelta(hours=1)
    assert idempotency.purge_expired(store, now=later, batch=3) == 7
    assert [idempotency.lookup(store, f"old-{n}", now=T0) for n in range(7)] == [None] * 7
    assert idempotency.lookup(store, "new", now=later) == ANSWER
