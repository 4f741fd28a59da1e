"""A service started before its Neo4j: it answers 503 meanwhile and is ready once Neo4j is.

Containers and clusters start in any order. The start's retry loop must outlive every error of
a database that is not there yet or still starting (driver errors once escaped the schema
calls and ended the loop: the service then stayed 503 for good).
"""

import time
from collections.abc import Callable
from pathlib import Path

import httpx2 as httpx
import pytest

from castlegraph.graph.backends.embedded import free_port
from tests.support.neo4j_server import (
    Neo4jServer,
    missing_tools_reason,
    neo4j_required,
    unavailable,
)
from tests.support.processes import Service

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
READY_SECONDS = 120.0


def health(service: Service) -> int:
    return httpx.get(f"{service.url}/api/health", timeout=5).status_code


def test_a_service_started_before_neo4j_becomes_ready_when_neo4j_is(
    tmp_path: Path, spawn: Callable[..., Service]
) -> None:
    reason = missing_tools_reason()
    if reason:
        unavailable(reason, required=neo4j_required())
    port = free_port()
    env = {"CASTLEGRAPH_NEO4J_URI": f"bolt://127.0.0.1:{port}", "CASTLEGRAPH_NEO4J_PASSWORD": "x"}
    service = spawn(tmp_path / "data", env=env)
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:  # listening, not ready: nothing answers on the port
        try:
            assert health(service) == 503
            break
        except httpx.TransportError:
            assert service.process.poll() is None, service.output()
            time.sleep(0.1)
    server = Neo4jServer(port)
    server.start()
    try:
        while health(service) != 200 and time.monotonic() < deadline:
            assert service.process.poll() is None, service.output()
            time.sleep(0.2)
        assert health(service) == 200, service.output()
        assert "Neo4j is not reachable yet" in service.output()
    finally:
        server.stop()
