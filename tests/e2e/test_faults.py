"""Faults with real processes: the database killed mid-stream (the embedded FalkorDB, which the
service restarts, and a Neo4j server, which comes back on its own data), Neo4j unreachable at
start."""

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
from tests.support.neo4j_server import (
    Neo4jServer,
    missing_tools_reason,
    neo4j_required,
    unavailable,
)
from tests.support.polling import eventually
from tests.support.processes import Service, wait_dead

pytestmark = pytest.mark.slow
DRIVER_RETRY_SECONDS = 5.0
"""The killed Neo4j's service retries a transaction this long (`graph.neo4j_retry_seconds`, 30 s
by default), then answers 503."""
RESTARTED_NEO4J_SECONDS = 60.0
"""How long a write may wait for its answer on a Neo4j just started again on its data, which
recovers its log and plans each statement afresh: one took 18.8 s on a loaded CI machine
(2026-12-07), answered 201, and the write queued behind it on the room's lock 3.9 s."""
FRESH_SCHEMA_SECONDS = 180.0
"""A service's first start on an empty Neo4j creates and awaits every index: slow on a busy
machine."""


def restarted(service: Service, killed: int) -> bool:
    """A new database child answers: the service's health is 200 again."""
    pids = database_children(service.process.pid)
    if not pids or pids == [killed]:
        return False
    try:
        return httpx.get(f"{service.url}/api/health", timeout=5).status_code == 200
    except httpx.TransportError:
        return False


NO_ANSWER = 0
"""The status recorded for a request that got no answer in the writer's time."""


class Writer:
    """Drawers written one after another on a thread until stopped: every status answered
    (`NO_ANSWER` for none), and the ids of the writes acknowledged (201)."""

    def __init__(self, service: Service, timeout: float = 10.0) -> None:
        self.service = service
        self.timeout = timeout
        self.acknowledged: list[str] = []
        self.statuses: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._write, daemon=True)  # dies with a test

    def _write(self) -> None:
        with httpx.Client(base_url=self.service.url, timeout=self.timeout) as client:
            for i in range(100_000):
                if self._stop.is_set():
                    return
                try:
                    response = client.post(
                        "/api/wings/w/rooms/r/drawers", json={"content": f"note {i}"}
                    )
                except httpx.TransportError:
                    self.statuses.append(NO_ANSWER)
                    continue
                self.statuses.append(response.status_code)
                if response.status_code == 201:
                    self.acknowledged.append(response.json()["drawer"]["id"])

    def start(self, before: int = 50) -> None:
        self._thread.start()
        eventually(
            lambda: len(self.acknowledged) >= before,
            f"{before} acknowledged writes before the fault",
            self.timeout * 3,
        )

    def refused_since(self, answered: int) -> bool:
        return 503 in self.statuses[answered:]

    def finish(self) -> None:
        """Wait for writes acknowledged after the fault, then stop and check what was kept."""
        after_restart = len(self.acknowledged)
        eventually(
            lambda: len(self.acknowledged) >= after_restart + 5,
            "writes acknowledged after the restart",
            self.timeout * 3,
        )
        self._stop.set()
        self._thread.join(30)
        assert not self._thread.is_alive(), "the writer is stuck on a request"
        assert 500 not in self.statuses
        assert set(self.statuses) == {201, 503}
        url = self.service.url
        assert httpx.get(f"{url}/api/health").status_code == 200
        missing = [
            drawer_id
            for drawer_id in self.acknowledged
            if httpx.get(f"{url}/api/drawers/{drawer_id}").status_code != 200
        ]
        assert missing == []


def test_a_killed_database_restarts_and_loses_no_acknowledged_write(
    tmp_path: Path, spawn: Callable[..., Service]
) -> None:
    service = spawn(tmp_path / "data")
    service.wait_healthy()
    database = service.database_pid()
    writer = Writer(service)
    writer.start()
    before_kill = len(writer.statuses)
    os.kill(database, signal.SIGKILL)
    eventually(lambda: writer.refused_since(before_kill), "a write refused with 503 in the outage")
    eventually(lambda: restarted(service, database), "the database restarted by the service")
    writer.finish()
    assert "restarting it" in service.output()
    service.stop(signal.SIGTERM)


def healthy(service: Service) -> bool:
    try:
        return httpx.get(f"{service.url}/api/health", timeout=5).status_code == 200
    except httpx.TransportError:
        return False


@pytest.mark.neo4j
@pytest.mark.timeout(600)  # two Neo4j starts and a fresh schema, on 2 busy cores
def test_a_killed_neo4j_restarted_on_its_data_loses_no_acknowledged_write(
    tmp_path: Path, spawn: Callable[..., Service]
) -> None:
    """A server of its own (the session's serves other tests), killed with SIGKILL under the
    writes and started again on the same port and data: the service answers 503 meanwhile,
    reconnects by itself, and every write it acknowledged is still there.

    The driver retries a write for `DRIVER_RETRY_SECONDS` before the service gives up with 503
    (had the setting not reached the driver, its 30 s would outlast the wait for that 503), so
    the writer waits longer than that for an answer (`RESTARTED_NEO4J_SECONDS`: the first
    writes on the restarted Neo4j are slow), and Neo4j stays down until a 503 came."""
    reason = missing_tools_reason()
    if reason:
        unavailable(reason, required=neo4j_required())
    server = Neo4jServer(data_dir=tmp_path / "neo4j")
    server.start()
    try:
        env = {
            "CASTLEGRAPH_NEO4J_URI": server.uri,
            "CASTLEGRAPH_NEO4J_PASSWORD": "auth-is-off",
            "CASTLEGRAPH_NEO4J_RETRY_SECONDS": str(DRIVER_RETRY_SECONDS),
        }
        service = spawn(tmp_path / "data", env=env)
        service.wait_healthy(FRESH_SCHEMA_SECONDS)
        writer = Writer(service, timeout=RESTARTED_NEO4J_SECONDS)
        writer.start(before=10)
        before_kill = len(writer.statuses)
        server.kill()
        eventually(
            lambda: writer.refused_since(before_kill),
            "a write refused with 503 in the outage",
            DRIVER_RETRY_SECONDS * 3,
        )
        server.start()
        eventually(lambda: healthy(service), "the service healthy on the restarted Neo4j", 60)
        writer.finish()
        service.stop(signal.SIGTERM)
    finally:
        server.stop()


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
