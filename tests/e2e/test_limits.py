"""Limits of a real service process: what an oversized or crowding client gets, and that
`/api/health` keeps answering meanwhile."""

import contextlib
import http.client
import json
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2 as httpx
import pytest

from tests.support.processes import Service
from tests.support.seeding import embedded_drawers, migrated_graph

pytestmark = pytest.mark.slow

MIB = 1024 * 1024
DRAWERS = 4000
CROWD = 6
DEADLINE_SECONDS = 120.0


def _chunks(total: int, size: int = 64 * 1024) -> Iterator[bytes]:
    """A JSON body of `total` bytes, sent as chunks: no Content-Length to refuse it by."""
    yield b'{"content": "'
    for _ in range(total // size):
        yield b"x" * size
    yield b'"}'


def test_a_chunked_body_over_the_limit_with_an_idempotency_key_is_413(
    data_dir: Path, spawn: Callable[..., Service]
) -> None:
    """The key's middleware reads the whole body before the route: past 8 MiB that read is
    refused, and the refusal must still be the envelope's 413, not a 500."""
    service = spawn(data_dir)
    service.wait_healthy()
    connection = http.client.HTTPConnection("127.0.0.1", service.port, timeout=60)
    try:
        # The service may answer and close before the whole body was sent.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            connection.request(
                "POST",
                "/api/wings/w/rooms/r/drawers",
                body=_chunks(9 * MIB),
                headers={"Content-Type": "application/json", "Idempotency-Key": "big-1"},
                encode_chunked=True,
            )
        response = connection.getresponse()
        body = json.loads(response.read())
    finally:
        connection.close()
    assert response.status == 413, body
    assert body["error"]["code"] == "payload::too_large"
    assert body["error"]["details"] == {"max_bytes": 8 * MIB}


def test_health_answers_while_heavy_reads_crowd_in(
    data_dir: Path, spawn: Callable[..., Service]
) -> None:
    """Several slow duplicates calls at once: one runs, the others are told to come back
    (503 `service::busy`, never a 500), and `/api/health` keeps answering 200."""
    with migrated_graph(data_dir) as store:
        embedded_drawers(store, DRAWERS, 64)
    service = spawn(
        data_dir,
        env={"CASTLEGRAPH_HEAVY_READS": "1", "CASTLEGRAPH_HEAVY_READ_WAIT_SECONDS": "0"},
    )
    service.wait_healthy()
    start = threading.Barrier(CROWD)

    def duplicates() -> httpx.Response:
        start.wait(timeout=30)
        return httpx.get(f"{service.url}/api/duplicates", timeout=DEADLINE_SECONDS)

    with ThreadPoolExecutor(CROWD) as pool:
        calls = [pool.submit(duplicates) for _ in range(CROWD)]
        health = _health_until_ok(service.url)
        answers = [call.result(timeout=DEADLINE_SECONDS) for call in calls]
    assert health == 200
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses[0] == 200 and statuses[-1] == 503, statuses
    assert set(statuses) == {200, 503}
    for answer in answers:
        if answer.status_code == 503:
            assert answer.json()["error"]["code"] == "service::busy"
            assert answer.headers["retry-after"]


def _health_until_ok(url: str) -> int:
    deadline = time.monotonic() + DEADLINE_SECONDS
    status = 0
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.TransportError):
            status = httpx.get(f"{url}/api/health", timeout=DEADLINE_SECONDS).status_code
            if status == 200:
                return status
        time.sleep(0.05)
    return status
