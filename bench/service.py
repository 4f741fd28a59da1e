"""Start and stop the real castlegraph service for a benchmark.

Benchmarks measure what a client sees, so they talk HTTP to `castlegraph serve` running as a
subprocess on a fresh data directory and a free loopback port. `Service.database_pid` is the
process whose memory and CPU time the results report as the database's: the service's
redis-server child, or the `bench.neo4j_server` the caller started.
"""

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import httpx

from bench.neo4j_server import PASSWORD, USER, Neo4jServer, neo4j_server
from bench.report import core_facts

HOST = "127.0.0.1"
READY_TIMEOUT_SECONDS = 60.0
READY_POLL_SECONDS = 0.2
STOP_TIMEOUT_SECONDS = 20.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
QUIET_SECONDS = 2.0
QUIET_SHARE = 0.05
"""A process is quiet once it spent under 5 % of a core for 2 s running."""
QUIET_TIMEOUT_SECONDS = 600.0
NEO4J_ENVIRONMENT = (
    "CASTLEGRAPH_NEO4J_URI",
    "CASTLEGRAPH_NEO4J_USER",
    "CASTLEGRAPH_NEO4J_PASSWORD",
    "CASTLEGRAPH_NEO4J_DATABASE",
)


class Backend(StrEnum):
    """Which graph database the service under test uses."""

    EMBEDDED = "embedded"
    NEO4J = "neo4j"


@dataclass(frozen=True, slots=True)
class Service:
    """A running service: where to reach it and which processes to measure."""

    base_url: str
    pid: int
    data_dir: Path
    log_path: Path
    neo4j: Neo4jServer | None = None

    @property
    def backend(self) -> Backend:
        return Backend.EMBEDDED if self.neo4j is None else Backend.NEO4J

    def database_pid(self) -> int | None:
        """The Neo4j JVM, else the service's embedded database child (None once it is gone)."""
        if self.neo4j is not None:
            return self.neo4j.pid
        children = database_children(self.pid)
        return children[0] if children else None

    def database_disk_mb(self) -> float | None:
        """Size on disk of the database's files: the Neo4j server's directory, else the data dir."""
        if self.neo4j is None:
            return disk_mb(self.data_dir)
        return disk_mb(self.neo4j.data_dir) if self.neo4j.data_dir is not None else None


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
    return [sys.executable, "-m", "castlegraph.api.cli"]


def _wait_ready(process: subprocess.Popen[bytes], base_url: str, timeout: float) -> dict[str, Any]:
    """Poll `GET /api/health` until 200, the process dies, or `timeout` seconds pass; the
    health's answer."""
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=base_url, timeout=2.0) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"service exited with {process.returncode} before ready")
            try:
                response = client.get("/api/health")
                if response.status_code == 200:
                    answer: dict[str, Any] = response.json()
                    return answer
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
def running_service(
    backend: Backend = Backend.EMBEDDED, environment: Mapping[str, str] | None = None
) -> Iterator[Service]:
    """Run the service on a fresh temporary data directory for the duration of the block
    (`environment` adds settings, e.g. `CASTLEGRAPH_MINE_ROOTS`).

    With `Backend.NEO4J` a fresh Neo4j server is started for it first (and stopped after it).
    The directory (and the logs) is removed afterwards, so on failure the service log's tail is
    copied to stderr first.
    """
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="castlegraph-bench-")))
        neo4j = start_database(stack, backend, tmp / "neo4j.log")
        yield stack.enter_context(
            serving(tmp / "data", tmp / "service.log", neo4j=neo4j, environment=environment)
        )


def start_database(stack: ExitStack, backend: Backend, log_path: Path) -> Neo4jServer | None:
    """A fresh Neo4j server held open by `stack`, or None for the embedded backend."""
    if backend is Backend.EMBEDDED:
        return None
    print("starting Neo4j…", file=sys.stderr)
    server = stack.enter_context(neo4j_server(log_path))
    print(f"  {server.uri} ready in {server.start_seconds:.1f} s", file=sys.stderr)
    return server


def service_environment(neo4j: Neo4jServer | None) -> dict[str, str]:
    """This process's environment, pointing the service at `neo4j` or at no Neo4j at all."""
    env = {name: value for name, value in os.environ.items() if name not in NEO4J_ENVIRONMENT}
    if neo4j is not None:
        env |= {
            "CASTLEGRAPH_NEO4J_URI": neo4j.uri,
            "CASTLEGRAPH_NEO4J_USER": USER,
            "CASTLEGRAPH_NEO4J_PASSWORD": PASSWORD,
        }
    return env


@contextmanager
def serving(
    data_dir: Path,
    log_path: Path,
    ready_timeout: float = READY_TIMEOUT_SECONDS,
    neo4j: Neo4jServer | None = None,
    environment: Mapping[str, str] | None = None,
) -> Iterator[Service]:
    """`castlegraph serve` on `data_dir` (new or filled beforehand) or `neo4j`, for the block.

    A fresh directory per run, so nothing left from an earlier run skews the numbers; the
    service's output goes to `log_path`, since an unread pipe would fill up and stall it
    mid-benchmark. Neo4j is named to the service through the `CASTLEGRAPH_NEO4J_*` environment."""
    port = free_port()
    command = [*castlegraph_command(), "serve", "--port", str(port), "--data-dir", str(data_dir)]
    env = service_environment(neo4j) | dict(environment or {})
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    base_url = f"http://{HOST}:{port}"
    try:
        health = _wait_ready(process, base_url, ready_timeout)
        expected = core_facts(env.get("CASTLEGRAPH_CORE"))["name"]
        if health.get("core") != expected:  # the results would be labelled with the wrong core
            raise RuntimeError(f"the service runs the {health.get('core')} core, not {expected}")
        yield Service(base_url, process.pid, data_dir, log_path, neo4j)
    except BaseException:
        _print_log_tail(log_path)
        raise
    finally:
        _stop(process)


def _print_log_tail(log_path: Path, lines: int = 30) -> None:
    tail = log_path.read_text(errors="replace").splitlines()[-lines:]
    print(f"--- last lines of {log_path.name} ---", *tail, sep="\n", file=sys.stderr)


def stat_cpu_seconds(stat: Path) -> float:
    """User + system CPU time in a /proc `stat` file, a process's or a thread's (0.0 once it
    is gone)."""
    try:
        fields = stat.read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def rss_mb(pid: int) -> float | None:
    """Resident memory of one process in MB (VmRSS), or None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def child_pids(pid: int) -> list[int]:
    """The process's direct children, whichever of its threads started them.

    `/proc/PID/task/TID/children` lists the children of one thread only, and the service starts
    its embedded database from a worker thread, not the main one: every thread is read.
    """
    found: list[int] = []
    for task in sorted(Path(f"/proc/{pid}/task").glob("*")):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue  # the thread ended meanwhile
    return found


DATABASE_COMMAND = "redis-server"
"""The embedded database's process name; the service's other children (the worker that
prepares a job's texts, `api.service.jobs.ahead`, and the word-list builders that live a few
seconds at start, `api.service.word_lists`) are the service's own."""


def _is_database(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() == DATABASE_COMMAND
    except OSError:
        return False  # it ended meanwhile


def database_children(pid: int) -> list[int]:
    """The process's direct children that are the embedded database."""
    return [child for child in child_pids(pid) if _is_database(child)]


def _total_rss_mb(pids: list[int]) -> float | None:
    sizes = [rss_mb(pid) for pid in pids]
    known = [size for size in sizes if size is not None]
    return sum(known) if known else None


def service_rss_mb(pid: int) -> float | None:
    """Resident memory of the service and of its children that are not the database."""
    own = [child for child in child_pids(pid) if not _is_database(child)]
    return _total_rss_mb([pid, *own])


def database_rss_mb(service: Service) -> float | None:
    """The Neo4j JVM's resident memory, else the embedded database's (a child of the service)."""
    if service.neo4j is not None:
        return rss_mb(service.neo4j.pid)
    return _total_rss_mb(database_children(service.pid))


def disk_mb(path: Path) -> float | None:
    """Total size of the files under `path` in MB, or None if it is gone."""
    if not path.is_dir():
        return None
    total = 0
    for file in path.rglob("*"):
        try:
            if file.is_file():
                total += file.stat().st_size
        except OSError:
            pass  # removed while counting (a log rotated, a rewrite's temporary file)
    return total / (1024 * 1024)


def memory_facts(service: Service) -> dict[str, float | None]:
    """Both memories at once (and the database's files), with the names the report and JSON use."""
    return {
        "service_rss_mb": service_rss_mb(service.pid),
        "database_rss_mb": database_rss_mb(service),
        "database_disk_mb": service.database_disk_mb(),
    }


_INDEX_SIZE = re.compile(r'^castlegraph_memory_index_(bytes|items)\{index="entity"\} (\S+)$', re.M)


def entity_index_facts(client: httpx.Client) -> dict[str, float | None]:
    """The service's in-memory entity index as its `/metrics` show it: the bytes its arrays
    hold, the entities it holds, and their quotient (all None while it is not ready)."""
    found = {
        kind: float(number) for kind, number in _INDEX_SIZE.findall(client.get("/metrics").text)
    }
    size, entities = found.get("bytes"), found.get("items")
    return {
        "entity_index_mb": None if size is None else size / (1024 * 1024),
        "entity_index_entities": entities,
        "entity_index_bytes_per_entity": size / entities if size is not None and entities else None,
    }


_STATEMENT_COUNT = re.compile(
    r'^castlegraph_graph_statement_duration_seconds_count\{statement="([^"]+)"\} (\S+)$', re.M
)


SCRAPE_STATEMENTS = frozenset({"job_status_counts"})
"""What a scrape of `/metrics` runs itself (the jobs by status): left out of the counts."""


def statement_counts(client: httpx.Client) -> Counter[str]:
    """The database round trips the service made so far, by statement (its `/metrics`), but
    those of the scrapes themselves."""
    text = client.get("/metrics").raise_for_status().text
    return Counter(
        {
            name: int(float(count))
            for name, count in _STATEMENT_COUNT.findall(text)
            if name not in SCRAPE_STATEMENTS
        }
    )


def until_quiet(cpu_seconds: Callable[[], float], what: str) -> float:
    """Seconds until the CPU time `cpu_seconds` reads (of the processes watched) grows by under
    `QUIET_SHARE` of a core over `QUIET_SECONDS`: what a process does right after a start or a
    load (an index warming, a database merging what it was loaded with) is not what a timed
    step should share its cores with. `RuntimeError` naming `what` past the timeout."""
    started = time.perf_counter()
    last = cpu_seconds()
    while time.perf_counter() - started < QUIET_TIMEOUT_SECONDS:
        time.sleep(QUIET_SECONDS)
        now = cpu_seconds()
        if now - last < QUIET_SHARE * QUIET_SECONDS:
            return time.perf_counter() - started
        last = now
    raise RuntimeError(f"{what} was still busy after {QUIET_TIMEOUT_SECONDS} s")
