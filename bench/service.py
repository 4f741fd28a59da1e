"""Start and stop the real castlegraph service for a benchmark.

Benchmarks measure what a client sees, so they talk HTTP to `castlegraph serve` running as a
subprocess on a fresh data directory (nothing left from an earlier run skews the numbers) and a
free loopback port. The service's own output goes to a log file in that directory: an unread
pipe would fill up and stall the service mid-benchmark.
"""

import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

HOST = "127.0.0.1"
READY_TIMEOUT_SECONDS = 60.0
READY_POLL_SECONDS = 0.2
STOP_TIMEOUT_SECONDS = 20.0


@dataclass(frozen=True, slots=True)
class Service:
    """A running service: where to reach it and which process to measure."""

    base_url: str
    pid: int
    data_dir: Path
    log_path: Path


def free_port() -> int:
    """A port the kernel just handed out; a tiny race with other programs is acceptable here."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def castlegraph_command() -> list[str]:
    """The `castlegraph` script next to this interpreter (the project's venv), else `-m`."""
    script = Path(sys.executable).with_name("castlegraph")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "api.cli"]


def _wait_ready(process: subprocess.Popen[bytes], base_url: str, timeout: float) -> None:
    """Poll `GET /api/health` until 200, the process dies, or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=base_url, timeout=2.0) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"service exited with {process.returncode} before ready")
            try:
                if client.get("/api/health").status_code == 200:
                    return
            except httpx.TransportError:
                pass  # not listening yet
            time.sleep(READY_POLL_SECONDS)
    raise RuntimeError(f"service not ready after {timeout:.0f} s")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM lets uvicorn and the embedded database shut down cleanly; SIGKILL is the backstop."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=STOP_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def running_service() -> Iterator[Service]:
    """Run the service on a fresh temporary data directory for the duration of the block.

    The directory (and the service log) is removed afterwards, so on failure the log's tail is
    copied to stderr first.
    """
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="castlegraph-bench-")))
        yield stack.enter_context(serving(tmp / "data", tmp / "service.log"))


@contextmanager
def serving(
    data_dir: Path, log_path: Path, ready_timeout: float = READY_TIMEOUT_SECONDS
) -> Iterator[Service]:
    """`castlegraph serve` on `data_dir` (new or filled beforehand) for the block."""
    port = free_port()
    command = [*castlegraph_command(), "serve", "--port", str(port), "--data-dir", str(data_dir)]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://{HOST}:{port}"
    try:
        _wait_ready(process, base_url, ready_timeout)
        yield Service(base_url=base_url, pid=process.pid, data_dir=data_dir, log_path=log_path)
    except BaseException:
        _print_log_tail(log_path)
        raise
    finally:
        _stop(process)


def _print_log_tail(log_path: Path, lines: int = 30) -> None:
    tail = log_path.read_text(errors="replace").splitlines()[-lines:]
    print(f"--- last lines of {log_path.name} ---", *tail, sep="\n", file=sys.stderr)


def rss_mb(pid: int) -> float | None:
    """Resident memory of one process in MB (VmRSS), or None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def children_rss_mb(pid: int) -> float | None:
    """Resident memory of the process's direct children: the embedded database, reported apart."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    sizes = [rss_mb(int(child)) for child in children]
    known = [size for size in sizes if size is not None]
    return sum(known) if known else None


def memory_facts(pid: int) -> dict[str, float | None]:
    """Both memories at once, with the names the report and JSON use."""
    return {"service_rss_mb": rss_mb(pid), "database_rss_mb": children_rss_mb(pid)}
