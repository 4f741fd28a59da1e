"""Faults with real processes: the database killed mid-stream, Neo4j unreachable at start."""

import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx2 as httpx
import pytest

from bench.service import database_children
from castlegraph.graph.backends.embedded import free_port
from tests.support.polling import eventually
from tests.support.processes import Service, wait_dead

pytestmark = pytest.mark.slow


def restarted(service: Service, killed: int) -> bool:
    """A new database child answers: the service's health is 200 again."""
    pids = database_children(service.process.pid)
    if not pids or pids == [killed]:
        return False
    try:
        return httpx.get(f"{service.url}/api/health", timeout=5).status_code == 200
    except httpx.TransportError:
        return False


def test_a_killed_database_restarts_and_loses_no_acknowledged_write(
    tmp_path: Path, spawn: Callable[..., Service]
) -> None:
    service = spawn(tmp_path / "data")
    service.wait_healthy()
    database = service.database_pid()
    acknowledged: list[str] = []
    statuses: list[int] = []
    stop = threading.Event()

    def writer() -> None:
        with httpx.Client(base_url=service.url, timeout=10) as client:
            for i in range(100_000):
                if stop.is_set():
                    return
                response = client.post(
                    "/api/wings/w/rooms/r/drawers", json={"content": f"note {i}"}
                )
                statuses.append(response.status_code)
                if response.status_code == 201:
                    acknowledged.append(response.json()["drawer"]["id"])

    thread = threading.Thread(target=writer, daemon=True)  # never outlives a failed test
    thread.start()
    eventually(lambda: len(acknowledged) >= 50, "50 acknowledged writes before the kill")
    before_kill = len(statuses)
    os.kill(database, signal.SIGKILL)
    eventually(lambda: 503 in statuses[before_kill:], "a write refused with 503 in the outage")
    eventually(lambda: restarted(service, database), "the database restarted by the service")
    after_restart = len(acknowledged)
    eventually(
        lambda: len(acknowledged) >= after_restart + 5, "writes acknowledged after the restart"
    )
    stop.set()
    thread.join(30)
    assert not thread.is_alive(), "the writer is stuck on a request"

    assert 500 not in statuses
    assert set(statuses) == {201, 503}
    assert httpx.get(f"{service.url}/api/health").status_code == 200
    missing = [
        drawer_id
        for drawer_id in acknowledged
        if httpx.get(f"{service.url}/api/drawers/{drawer_id}").status_code != 200
    ]
    assert missing == []
    assert "restarting it" in service.output()
    service.stop(signal.SIGTERM)


def test_a_database_restarted_by_the_watchdog_dies_with_the_service(
    tmp_path: Path, spawn: Callable[..., Service]
) -> None:
    """The restarted child is forked by the database's own long-lived thread, so the kernel
    still kills it when the service is killed, and a SIGTERM still stops it cleanly."""
    service = spawn(tmp_path / "data")
    service.wait_healthy()
    first = service.database_pid()
    os.kill(first, signal.SIGKILL)
    eventually(lambda: restarted(service, first), "the database restarted by the service")
    [again] = database_children(service.process.pid)
    assert again != first
    written = httpx.post(f"{service.url}/api/wings/w/rooms/r/drawers", json={"content": "x"})
    assert written.status_code == 201
    service.stop(signal.SIGKILL)
    assert wait_dead(again)


def test_neo4j_unreachable_at_start_is_reported_and_retried(
    tmp_path: Path, spawn: Callable[..., Service]
) -> None:
    closed = free_port()
    env = {"CASTLEGRAPH_NEO4J_URI": f"bolt://127.0.0.1:{closed}", "CASTLEGRAPH_NEO4J_PASSWORD": "x"}
    service = spawn(tmp_path / "data", env=env)
    deadline = time.monotonic() + 30
    health = None
    while time.monotonic() < deadline:
        try:
            health = httpx.get(f"{service.url}/api/health", timeout=2)
            break
        except httpx.TransportError:
            time.sleep(0.1)
    assert health is not None
    assert health.status_code == 503
    assert health.json()["error"]["code"] == "graph::unavailable"
    write = httpx.post(f"{service.url}/api/wings/w/rooms/r/drawers", json={"content": "x"})
    assert write.status_code == 503
    assert write.json()["error"]["code"] == "graph::unavailable"
    assert "Neo4j is not reachable yet" in service.output()
    eventually(lambda: "still unreachable" in service.output(), "a logged retry")
    service.stop(signal.SIGTERM)
