"""Real `castlegraph serve` and `castlegraph mcp` processes for tests: start, wait healthy,
stop, and find their children in /proc (the embedded database runs as one).

The `spawn` fixture that kills whatever a failed test left running is in `tests/e2e/conftest.py`.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx

from bench.service import child_pids, database_children
from castlegraph.graph.backends.embedded import free_port

START_SECONDS = 120.0  # a start on a busy 2-core machine (on Neo4j: migrations on a wiped graph)


def server_processes(data_dir: Path) -> list[int]:
    """The `castlegraph mcp` process serving `data_dir`, and its children."""
    for entry in Path("/proc").iterdir():
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"mcp" in argv and str(data_dir).encode() in argv:
            return [int(entry.name), *child_pids(int(entry.name))]
    return []


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_dead(pid: int, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


class Service:
    """One `castlegraph serve` on a free port; its output goes to a log file beside the data."""

    def __init__(
        self,
        data_dir: Path,
        log_dir: Path | None = None,
        env: dict[str, str] | None = None,
        args: list[str] | None = None,
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (log_dir or data_dir.parent) / f"service-{self.port}.log"
        command = [
            sys.executable,
            "-m",
            "castlegraph.api.cli.app",
            "serve",
            "--port",
            str(self.port),
            "--data-dir",
            str(data_dir),
            *(args or []),
        ]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
            )

    def wait_healthy(self, seconds: float = START_SECONDS) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.output()
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"service not healthy in {seconds} s")

    @property
    def pid(self) -> int:
        return self.process.pid

    def database_pid(self) -> int:
        [pid] = database_children(self.process.pid)
        return pid

    def stop(self, sig: int) -> None:
        """Stop with `sig` and check the shutdown was graceful (uvicorn re-raises the signal)."""
        self.process.send_signal(sig)
        assert self.process.wait(timeout=30) in (0, -sig), self.output()
        if sig != signal.SIGKILL and "graph ready: embedded FalkorDB" in self.output():
            assert "graph closed: embedded FalkorDB" in self.output()

    def output(self) -> str:
        return self.log.read_text(errors="replace")
