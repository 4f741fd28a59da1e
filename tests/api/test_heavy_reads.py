"""Heavy reads (`/api/duplicates`, `/api/hygiene`) past `api.heavy_reads` wait a bounded time,
then get `503 service::busy` with `Retry-After`; `/api/health` answers meanwhile.

The first duplicates call is held inside its first statement (`tests.support.holding`), so the
slot is taken for as long as the test needs, with no timing involved.
"""

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from api.http.concurrency import HeavyReads
from graph.errors import RETRY_AFTER_SECONDS
from tests.support.app import assert_envelope
from tests.support.holding import holding_first


@pytest.fixture
def one_slot(client: TestClient) -> Iterator[TestClient]:
    """The app with one heavy read at a time and no wait for a slot."""
    state = client.app.state  # type: ignore[attr-defined]
    previous = state.heavy_reads
    state.heavy_reads = HeavyReads(1, 0.0)
    yield client
    state.heavy_reads = previous


def test_a_heavy_read_while_the_slot_is_taken_is_503_busy(one_slot: TestClient) -> None:
    client = one_slot
    with holding_first("pending_pairs") as hold, ThreadPoolExecutor(1) as pool:
        first = pool.submit(client.get, "/api/duplicates")
        assert hold.holding.wait(timeout=30)
        crowded = [client.get("/api/duplicates"), client.get("/api/hygiene")]
        health = client.get("/api/health")
        hold.release.set()
        assert first.result(timeout=60).status_code == 200
    assert health.status_code == 200
    for response in crowded:
        assert response.status_code == 503
        assert_envelope(response.json(), "service::busy")
        assert response.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    assert client.get("/api/hygiene").status_code == 200  # the slot is free again
