"""`castlegraph serve` as a real process: start, persist, stop on signals, no orphans."""

import signal
from collections.abc import Callable
from pathlib import Path

import httpx2 as httpx
import pytest

from castlegraph.api.service.address import ADDRESS_FILE, ServiceAddress, recorded
from castlegraph.graph.backends.embedded import HOST, EmbeddedFalkorDB
from castlegraph.graph.backends.falkordb_store import FalkorStore
from tests.support.processes import Service, alive, wait_dead

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_stop_leaves_no_database_behind_and_restart_keeps_drawers(
    data_dir: Path, spawn: Callable[..., Service], stop_signal: int
) -> None:
    service = spawn(data_dir)
    service.wait_healthy()
    database = service.database_pid()
    written = httpx.post(f"{service.url}/api/wings/w/rooms/r/drawers", json={"content": "kept"})
    assert written.status_code == 201
    assert recorded(data_dir) == ServiceAddress("http", "127.0.0.1", service.port, service.pid)
    service.stop(stop_signal)
    assert not alive(database)
    assert not (data_dir / ADDRESS_FILE).exists()  # a clean stop removes its record

    restarted = spawn(data_dir)
    restarted.wait_healthy()
    drawer_id = written.json()["drawer"]["id"]
    assert httpx.get(f"{restarted.url}/api/drawers/{drawer_id}").json()["content"] == "kept"
    restarted.stop(signal.SIGTERM)


def test_a_killed_service_takes_its_database_with_it(
    data_dir: Path, spawn: Callable[..., Service]
) -> None:
    service = spawn(data_dir)
    service.wait_healthy()
    written = httpx.post(f"{service.url}/api/wings/w/rooms/r/drawers", json={"content": "durable"})
    database = service.database_pid()
    service.stop(signal.SIGKILL)
    assert wait_dead(database)
    assert (data_dir / ADDRESS_FILE).exists()  # left behind, and ignored: its process is gone
    assert recorded(data_dir) is None
    restarted = spawn(data_dir)
    restarted.wait_healthy()
    assert recorded(data_dir) == ServiceAddress("http", "127.0.0.1", restarted.port, restarted.pid)
    drawer_id = written.json()["drawer"]["id"]
    assert httpx.get(f"{restarted.url}/api/drawers/{drawer_id}").status_code == 200
    restarted.stop(signal.SIGTERM)


def test_a_second_service_on_the_same_data_directory_is_refused(
    data_dir: Path, spawn: Callable[..., Service]
) -> None:
    first = spawn(data_dir)
    first.wait_healthy()
    second = spawn(data_dir)
    assert second.process.wait(timeout=30) == 1
    assert "another castlegraph service is using the data directory" in second.output()
    assert httpx.get(f"{first.url}/api/health").status_code == 200
    first.stop(signal.SIGTERM)


def test_an_unwritable_data_directory_is_a_clear_error(
    tmp_path: Path, spawn: Callable[..., Service]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    service = spawn(blocker / "data", log_dir=tmp_path)
    assert service.process.wait(timeout=30) == 1
    assert "is not writable" in service.output()


def test_a_failed_migration_stops_the_service_with_a_clear_error(
    data_dir: Path, spawn: Callable[..., Service]
) -> None:
    database = EmbeddedFalkorDB(data_dir)
    database.start()
    store = FalkorStore(HOST, database.port, database.password)
    store.run_text("CREATE (:Drawer {id: 'broken', wing: 'w', room: 'r'})", {})  # no content
    store.close()
    database.stop()
    service = spawn(data_dir)
    assert service.process.wait(timeout=30) == 1
    assert "migration 3" in service.output()
    assert "Traceback" not in service.output()


def test_an_idempotency_key_replays_across_a_restart(
    data_dir: Path, spawn: Callable[..., Service]
) -> None:
    headers = {"Idempotency-Key": "restart-1"}
    body = {"content": "written once"}
    service = spawn(data_dir)
    service.wait_healthy()
    first = httpx.post(f"{service.url}/api/wings/w/rooms/r/drawers", json=body, headers=headers)
    service.stop(signal.SIGTERM)

    restarted = spawn(data_dir)
    restarted.wait_healthy()
    retry = httpx.post(f"{restarted.url}/api/wings/w/rooms/r/drawers", json=body, headers=headers)
    assert (first.status_code, retry.status_code) == (201, 201)
    assert retry.json() == first.json()
    assert retry.headers["idempotent-replayed"] == "true"
    restarted.stop(signal.SIGTERM)
