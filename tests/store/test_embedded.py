"""The embedded database's own process: private files, no password on its command line, a hung
child restarted by the watchdog, and a restarted child still owned by the service (design §8.1,
§7). Real redis-server children, each on a data directory of its own."""

import logging
import os
import signal
import socket
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from castlegraph.graph.backends import embedded as embedded_module
from castlegraph.graph.backends.child_watch import Answer
from castlegraph.graph.backends.embedded import (
    CONFIG_FILE,
    DATABASE_DIR,
    HOST,
    LOG_FILE,
    EmbeddedFalkorDB,
)
from castlegraph.graph.backends.falkordb_store import FalkorStore
from castlegraph.graph.errors import GraphUnavailable
from tests.support.processes import alive, wait_dead

pytestmark = pytest.mark.slow
DEADLINE_SECONDS = 30.0


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def embedded(tmp_path: Path) -> Iterator[EmbeddedFalkorDB]:
    server = EmbeddedFalkorDB(tmp_path / "data", fsync="everysec", hung_seconds=1.0)
    yield server
    pid = server.pid
    if pid is not None and alive(pid):
        os.kill(pid, signal.SIGCONT)  # a stopped child would not hear SIGTERM
    server.stop()


def returned_one(embedded: EmbeddedFalkorDB) -> list[dict[str, Any]]:
    """What `RETURN 1 AS one` answers through a client of its own to the child."""
    store = FalkorStore(HOST, embedded.port, embedded.password)
    try:
        return store.run_text("RETURN 1 AS one", {})
    finally:
        store.close()


def next_child(embedded: EmbeddedFalkorDB, old: int) -> int:
    """Poll until the watchdog has a new child that answers; its pid."""
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        pid = embedded.pid
        if pid not in (None, old) and embedded.is_running():
            try:
                FalkorStore(HOST, embedded.port, embedded.password).close()
                assert pid is not None
                return pid
            except GraphUnavailable:
                pass  # not listening yet, or still loading its file
        time.sleep(0.05)
    raise AssertionError(f"no new database child within {DEADLINE_SECONDS} s")


def test_the_data_directory_and_the_database_files_are_private(
    embedded: EmbeddedFalkorDB,
) -> None:
    embedded.start()
    data = embedded.data_dir
    assert mode(data) == 0o700
    assert mode(data / DATABASE_DIR) == 0o700
    assert mode(data / CONFIG_FILE) == 0o600
    assert mode(data / LOG_FILE) == 0o600
    files = sorted((data / DATABASE_DIR).iterdir())
    assert [path.name for path in files if path.name.endswith(".manifest")] == [
        "appendonly.aof.manifest"
    ]
    assert {path.name: mode(path) for path in files} == {path.name: 0o600 for path in files}


def test_an_existing_open_data_directory_is_narrowed_to_its_owner(tmp_path: Path) -> None:
    data = tmp_path / "open"
    (data / DATABASE_DIR).mkdir(parents=True)
    data.chmod(0o755)
    (data / DATABASE_DIR).chmod(0o777)
    server = EmbeddedFalkorDB(data, fsync="everysec")
    server.start()
    try:
        assert mode(data) == 0o700
        assert mode(data / DATABASE_DIR) == 0o700
    finally:
        server.stop()


def test_the_password_is_in_a_private_config_file_never_on_the_command_line(
    embedded: EmbeddedFalkorDB,
) -> None:
    embedded.start()
    assert embedded.pid is not None
    executed = " ".join(embedded.argv)
    assert embedded.argv[1:] == [str(embedded.data_dir / CONFIG_FILE)]
    assert embedded.password not in executed
    cmdline = Path(f"/proc/{embedded.pid}/cmdline").read_bytes()
    assert embedded.password.encode() not in cmdline
    assert b"redis-server" in cmdline
    config = (embedded.data_dir / CONFIG_FILE).read_text()
    assert f'requirepass "{embedded.password}"' in config.splitlines()
    assert returned_one(embedded) == [{"one": 1}]
    with pytest.raises(GraphUnavailable):
        FalkorStore(HOST, embedded.port, "wrong").run_text("RETURN 1 AS one", {})


def test_a_hung_database_times_out_as_unavailable_and_the_watchdog_restarts_it(
    embedded: EmbeddedFalkorDB,
) -> None:
    embedded.start()
    store = FalkorStore(HOST, embedded.port, embedded.password, socket_timeout=1.0)
    try:
        assert store.run_text("RETURN 1 AS one", {}) == [{"one": 1}]
        hung = embedded.pid
        assert hung is not None
        os.kill(hung, signal.SIGSTOP)
        with pytest.raises(GraphUnavailable, match="unavailable"):
            store.run_text("RETURN 1 AS one", {})
        stopping = threading.Event()
        thread = threading.Thread(target=embedded.watch, args=(stopping,))
        thread.start()
        try:
            fresh = next_child(embedded, hung)
        finally:
            stopping.set()
            thread.join(DEADLINE_SECONDS)
        assert wait_dead(hung)
        assert fresh != hung
        assert store.run_text("RETURN 1 AS one", {}) == [{"one": 1}]
    finally:
        store.close()


def test_a_query_over_the_timeout_is_unavailable(embedded: EmbeddedFalkorDB) -> None:
    embedded.start()
    store = FalkorStore(HOST, embedded.port, embedded.password, query_timeout_ms=1)
    try:
        with pytest.raises(GraphUnavailable, match="timed out"):
            store.run_text(
                "UNWIND range(1, 50000000) AS x WITH x WHERE x % 7 = 3 RETURN count(x) AS n", {}
            )
    finally:
        store.close()


def test_a_child_restarted_by_the_watchdog_outlives_the_watchdog_and_stops_cleanly(
    embedded: EmbeddedFalkorDB,
) -> None:
    """The kernel kills the child when the thread that forked it ends: were it the watchdog's,
    ending the watchdog (which the service does first on stop) would SIGKILL the database."""
    embedded.start()
    first = embedded.pid
    assert first is not None
    stopping = threading.Event()
    thread = threading.Thread(target=embedded.watch, args=(stopping,))
    thread.start()
    os.kill(first, signal.SIGKILL)
    try:
        fresh = next_child(embedded, first)
    finally:
        stopping.set()
        thread.join(DEADLINE_SECONDS)
    task = Path(f"/proc/self/task/{thread.native_id}")
    deadline = time.monotonic() + DEADLINE_SECONDS
    while task.exists() and time.monotonic() < deadline:  # the OS thread, not just Python's
        time.sleep(0.01)
    assert not task.exists()
    log = embedded.data_dir / LOG_FILE
    before = log.read_text().count("ready to exit")
    embedded.stop()
    assert not alive(fresh)
    assert log.read_text().count("ready to exit") == before + 1  # SIGTERM, not a kill


SLOW_LOADING = "key-load-delay 100000\nloading-process-events-interval-bytes 1024\n"


def base_file(manifest: Path) -> str:
    """The snapshot an append-only file's manifest starts from (its `type b` line)."""
    lines = manifest.read_text().splitlines()
    return next(line.split()[1] for line in lines if line.endswith(" type b"))


def test_a_child_still_loading_its_file_past_the_start_deadline_is_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """redis-server's own test knobs make reading the file outlast a start deadline of 2 s (0.1 s
    per key, 41 keys); the child listens meanwhile (a PING unanswered, then LOADING), so it is
    waited for."""
    data = tmp_path / "data"
    server = EmbeddedFalkorDB(data, fsync="everysec")
    server.start()
    store = FalkorStore(HOST, server.port, server.password)
    try:
        store.run_text("UNWIND range(1, 2000) AS i CREATE (:Thing {i: i})", {})
        for number in range(40):  # keys read one by one, with events handled between them
            store._graph.execute_command("SET", f"padding:{number}", "x" * 2048)
        manifest = data / DATABASE_DIR / "appendonly.aof.manifest"
        before = base_file(manifest)
        store._graph.execute_command("BGREWRITEAOF")  # the file becomes one snapshot
        deadline = time.monotonic() + DEADLINE_SECONDS
        while base_file(manifest) == before:
            assert time.monotonic() < deadline, "the append-only file was not rewritten"
            time.sleep(0.05)
    finally:
        store.close()
        server.stop()
    slow = EmbeddedFalkorDB(data, fsync="everysec")
    plain = slow._config
    monkeypatch.setattr(slow, "_config", lambda: plain() + SLOW_LOADING)
    monkeypatch.setattr(embedded_module, "START_TIMEOUT_SECONDS", 2.0)
    started = time.monotonic()
    slow.start()
    try:
        assert time.monotonic() - started > 2.0
        store = FalkorStore(HOST, slow.port, slow.password)
        assert store.run_text("MATCH (t:Thing) RETURN count(t) AS n", {}) == [{"n": 2000}]
        store.close()
    finally:
        slow.stop()


BUSY_SCRIPT = """
local start = redis.call('TIME')
local began = tonumber(start[1]) + tonumber(start[2]) / 1e6
while true do
  local now = redis.call('TIME')
  if tonumber(now[1]) + tonumber(now[2]) / 1e6 - began > tonumber(ARGV[1]) then return 1 end
end
"""


def test_a_busy_database_that_answers_late_is_left_to_finish(embedded: EmbeddedFalkorDB) -> None:
    """A script holds redis-server's main thread for 3 s, using the CPU, three times the
    watchdog's patience (1 s): the child is silent but working, so it is not restarted."""
    embedded.start()
    busy = embedded.pid
    store = FalkorStore(HOST, embedded.port, embedded.password, socket_timeout=30.0)
    stopping = threading.Event()
    thread = threading.Thread(target=embedded.watch, args=(stopping,))
    thread.start()
    try:
        assert store._graph.execute_command("EVAL", BUSY_SCRIPT, 0, "3") == 1
        assert embedded.pid == busy
        assert store.run_text("RETURN 1 AS one", {}) == [{"one": 1}]
    finally:
        stopping.set()
        thread.join(DEADLINE_SECONDS)
        store.close()


def test_a_database_that_stalls_at_start_is_started_once_more(
    embedded: EmbeddedFalkorDB, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The first child answers LOADING and is stopped, as a load that deadlocked looks (it
    listens, then uses no CPU); the second loads: the start succeeds on it."""
    monkeypatch.setattr(embedded_module, "STALLED_SECONDS", 1.0)
    first: list[int] = []
    real_ping = EmbeddedFalkorDB._ping

    def ping(client: redis.Redis) -> Answer | None:
        pid = embedded.pid
        assert pid is not None
        if not first:
            first.append(pid)
            os.kill(pid, signal.SIGSTOP)
        return Answer.LOADING if pid == first[0] else real_ping(client)

    monkeypatch.setattr(EmbeddedFalkorDB, "_ping", staticmethod(ping))
    with caplog.at_level(logging.WARNING, logger="castlegraph.embedded"):
        embedded.start()
    assert embedded.pid not in (None, first[0])
    assert wait_dead(first[0])
    assert "stopped making progress" in caplog.text and "starting it once more" in caplog.text
    assert returned_one(embedded) == [{"one": 1}]


def test_a_child_whose_chosen_port_was_taken_meanwhile_is_started_on_another(
    embedded: EmbeddedFalkorDB, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The port chosen was free when chosen; another process binds it before the child does,
    so the child exits at once: it is started once more on a port chosen again."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind((HOST, 0))
        taken.listen()
        taken_port = taken.getsockname()[1]
        choices = iter([taken_port])
        real_free_port = embedded_module.free_port
        monkeypatch.setattr(
            embedded_module, "free_port", lambda: next(choices, None) or real_free_port()
        )
        with caplog.at_level(logging.WARNING, logger="castlegraph.embedded"):
            embedded.start()
    assert embedded.port not in (0, taken_port)
    assert "exited at start" in caplog.text and "once more on another port" in caplog.text
    assert returned_one(embedded) == [{"one": 1}]


def test_a_configured_port_that_is_taken_is_refused(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind((HOST, 0))
        taken.listen()
        server = EmbeddedFalkorDB(tmp_path / "data", port=taken.getsockname()[1])
        with pytest.raises(GraphUnavailable, match="exited at start"):
            server.start()
    assert server.pid is None or not server.is_running()
    server.stop()
