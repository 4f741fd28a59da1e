"""A throw-away Neo4j 5 for a benchmark: `scripts/neo4j-server`, one per graph under test.

The launcher runs Neo4j's test harness in a JVM (Bolt only, auth off, data in a temporary
directory it removes on exit), prints its Bolt address once it accepts connections, and stops
when its standard input closes, so a benchmark that dies takes its servers with it. It `exec`s
java: the process started here is the JVM, whose RSS and CPU time are the database's.
"""

import os
import queue
import re
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAUNCHER = ROOT / "scripts" / "neo4j-server"
READY = re.compile(r"bolt://127\.0\.0\.1:\d+")
DATA_DIR = re.compile(r"data in (\S+)")
START_TIMEOUT_SECONDS = 600.0
"""The first start builds the launcher with Maven; later starts take 5-15 s."""
STOP_TIMEOUT_SECONDS = 30.0
DEFAULT_HEAP = "2g"
"""JVM heap unless NEO4J_SERVER_HEAP says otherwise (the launcher's own default is 1g). The
launcher's page cache is a fixed 256 MiB off-heap, more than the store of 100 k entities or
drawers takes on disk (`database_disk_mb` in the results)."""

USER, PASSWORD = "neo4j", "bench"
"""Auth is off on this server: any credentials are accepted."""


def heap() -> str:
    """The JVM heap a server of this benchmark gets."""
    return os.environ.get("NEO4J_SERVER_HEAP") or DEFAULT_HEAP


@dataclass(frozen=True, slots=True)
class Neo4jServer:
    """A running server: its Bolt address, the JVM's pid and how long it took to be ready."""

    uri: str
    pid: int
    start_seconds: float
    data_dir: Path | None


@contextmanager
def neo4j_server(log_path: Path) -> Iterator[Neo4jServer]:
    """Start one server for the block; stop it (and so remove its data) afterwards. It runs
    with `--verbose`, its stderr in a log file next to the service's: a line there names the
    data directory, whose size the results report."""
    env = {**os.environ, "NEO4J_SERVER_HEAP": heap()}
    started = time.perf_counter()
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(LAUNCHER), "--port", "0", "--verbose"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            env=env,
        )
    try:
        uri = _wait_ready(process, log_path)
        yield Neo4jServer(uri, process.pid, time.perf_counter() - started, _data_dir(log_path))
    finally:
        _stop(process)


def _wait_ready(process: subprocess.Popen[bytes], log_path: Path) -> str:
    """The Bolt address from the ready line; the log's text if the launcher exits first."""
    lines: queue.Queue[bytes | None] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, name="neo4j-server-stdout", daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while True:
        try:
            line = lines.get(timeout=max(deadline - time.monotonic(), 0.0))
        except queue.Empty:
            raise TimeoutError(f"Neo4j not ready after {START_TIMEOUT_SECONDS:.0f} s") from None
        if line is None:
            process.wait(timeout=STOP_TIMEOUT_SECONDS)
            log = log_path.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"Neo4j exited with {process.returncode} before ready:\n{log}")
        found = READY.search(line.decode(errors="replace"))
        if found:
            return found.group(0)


def _data_dir(log_path: Path) -> Path | None:
    found = DATA_DIR.search(log_path.read_text(errors="replace"))
    return Path(found.group(1)) if found else None


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Close its standard input (the launcher's signal to stop), then make sure it did."""
    if process.stdin is not None:
        process.stdin.close()
    try:
        process.wait(timeout=STOP_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=STOP_TIMEOUT_SECONDS)
    if process.stdout is not None:
        process.stdout.close()
