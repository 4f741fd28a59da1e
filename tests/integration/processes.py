"""Real `castlegraph serve` processes for tests: start, wait healthy, stop, inspect children."""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx2 as httpx
import pytest

from graph.embedded import free_port

START_SECONDS = 30.0


def children(pid: int) -> list[int]:
    """Direct children of a process, read from /proc (redis-server rewrites its cmdline)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


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
    def __init__(
        self, data_dir: Path, log_dir: Path | None = None, env: dict[str, str] | None = None
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (log_dir or data_dir.parent) / f"service-{self.port}.log"
        command = [
            sys.executable,
            "-m",
            "api.cli.app",
            "serve",
            "--port",
            str(self.port),
            "--data-dir",
            str(data_dir),
        ]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
            )

    def wait_healthy(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.output()
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"service not healthy in {START_SECONDS} s")

    def database_pid(self) -> int:
        [pid] = children(self.process.pid)
        return pid

    def stop(self, sig: int) -> None:
        """Stop with `sig` and check the shutdown was graceful (uvicorn re-raises the signal)."""
        self.process.send_signal(sig)
        assert self.process.wait(timeout=30) in (0, -sig), self.output()
        if sig != signal.SIGKILL and "graph ready: embedded FalkorDB" in self.output():
            assert "graph closed: embedded FalkorDB" in self.output()

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture
def spawn() -> Iterator[Callable[..., Service]]:
    """Start services; whatever a failed test left running is killed afterwards."""
    started: list[Service] = []

    def start(
        data_dir: Path, log_dir: Path | None = None, env: dict[str, str] | None = None
    ) -> Service:
        started.append(Service(data_dir, log_dir, env))
        return started[-1]

    yield start
    for service in started:
        if service.process.poll() is None:
            service.process.kill()
            service.process.wait()
