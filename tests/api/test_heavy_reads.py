"""Heavy reads (`/api/duplicates`, `/api/hygiene` and their MCP tools) past `api.heavy_reads`
wait a bounded time, then get `503 service::busy` with `Retry-After` (a tool error naming the
code over MCP); `/api/health` answers meanwhile.

The first duplicates call is held inside its first statement (`tests.support.holding`), so the
slot is taken for as long as the test needs, with no timing involved.
"""

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from castlegraph.api.http.statuses import RETRY_AFTER_SECONDS
from castlegraph.api.service.heavy_reads import HeavyReads
from tests.support.app import assert_envelope
from tests.support.holding import holding_first
from tests.support.mcp import MCP_HEADERS


@pytest.fixture
def one_slot(client: TestClient) -> Iterator[TestClient]:
    """The app with one heavy read at a time and no wait for a slot."""
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    previous = runtime.heavy_reads
    runtime.heavy_reads = HeavyReads(1, 0.0)
    yield client
    runtime.heavy_reads = previous


def test_a_heavy_read_while_the_slot_is_taken_is_503_busy(one_slot: TestClient) -> None:
    client = one_slot
    with holding_first("vector_group_pairs") as hold, ThreadPoolExecutor(1) as pool:
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


def _tool_answer(client: TestClient, name: str) -> tuple[bool, str]:
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": name}}
    answer = client.post("/mcp", json=call, headers=MCP_HEADERS)
    assert answer.status_code == 200, answer.text
    result = answer.json()["result"]
    return bool(result.get("isError")), result["content"][0]["text"]


def test_the_mcp_tools_take_the_same_slots(one_slot: TestClient) -> None:
    client = one_slot
    with holding_first("vector_group_pairs") as hold, ThreadPoolExecutor(1) as pool:
        first = pool.submit(client.get, "/api/duplicates")
        assert hold.holding.wait(timeout=30)
        crowded = [_tool_answer(client, "find_duplicates"), _tool_answer(client, "hygiene")]
        hold.release.set()
        assert first.result(timeout=60).status_code == 200
    for is_error, text in crowded:
        assert is_error is True
        assert "service::busy: 1 heavy read(s) already running" in text, text
    is_error, text = _tool_answer(client, "hygiene")  # the slot is free again
    assert is_error is False
    assert text.startswith("Nothing waits for review"), text
