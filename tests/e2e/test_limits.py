"""Limits of a real service process: what an oversized or crowding client gets, and that
`/api/health` keeps answering meanwhile."""

import contextlib
import http.client
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.processes import Service

pytestmark = pytest.mark.slow

MIB = 1024 * 1024


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
