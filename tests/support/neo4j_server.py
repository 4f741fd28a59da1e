"""A throw-away Neo4j 5 for the tests: `scripts/neo4j-server`, started once per session.

The launcher runs Neo4j's own test harness in a JVM (Bolt only, auth off, data in a temporary
directory unless one is given) and stops when its standard input closes, so a test run that
dies takes the server with it. Where Java or Maven is missing the Neo4j tests are skipped with
that reason, unless `CASTLEGRAPH_NEO4J_REQUIRED` says this run must test Neo4j
(`unavailable`).
"""

import os
import queue
import re
import shutil
import subprocess
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import NoReturn

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = ROOT / "scripts" / "neo4j-server"
READY = re.compile(r"(bolt(?:\+s)?://127\.0\.0\.1:\d+)(?: certificate=(\S+))?")
START_SECONDS = 600.0  # the first start builds the launcher and downloads Neo4j's jars
STOP_SECONDS = 30.0
REQUIRED_ENV = "CASTLEGRAPH_NEO4J_REQUIRED"
"""Set (to anything but empty or 0) where Neo4j must run: `scripts/test` sets it when Java and
Maven are on PATH, so a Neo4j that cannot start fails the run instead of skipping its half."""


def neo4j_required(environ: Mapping[str, str] = os.environ) -> bool:
    return environ.get(REQUIRED_ENV, "") not in ("", "0")


def unavailable(reason: str, *, required: bool, detail: str = "") -> NoReturn:
    """Why no Neo4j runs here: a skip where that is allowed, else a failure of every Neo4j
    test (with `detail`, e.g. the server's output), so that a CI whose Neo4j broke is red
    rather than green with half the suite gone."""
    if required:
        said = f"{reason} ({REQUIRED_ENV} is set: Neo4j must run here)"
        pytest.fail(f"{said}\n{detail}" if detail else said, pytrace=False)
    pytest.skip(reason)


def start_or_give_up(server: "Neo4jServer", *, required: bool) -> str:
    """The server's Bolt URI once started; a start that failed is `unavailable`."""
    try:
        return server.start()
    except (RuntimeError, TimeoutError) as error:
        first_line = str(error).splitlines()[0].rstrip(":")
        reason = f"the session's Neo4j did not start: {first_line}"
        unavailable(reason, required=required, detail=str(error))


def missing_tools_reason() -> str | None:
    """None when this machine can start the launcher, else why not."""
    missing = [tool for tool in ("java", "mvn") if shutil.which(tool) is None]
    if missing:
        return f"no NEO4J_URI, and {' and '.join(missing)} not found to start Neo4j's harness"
    return None


class Neo4jServer:
    """One `scripts/neo4j-server` process; `uri` is its Bolt address once `start` returns.

    `password` turns auth on (the `neo4j` user's, 8 characters or more); `tls` makes Bolt take
    TLS only, with a self-signed certificate whose PEM file is `certificate` once started. With
    `data_dir` the database lives there and outlives the process, so `stop` (or `kill`) then
    `start` again is a restart on the same port with the same data.
    """

    def __init__(
        self,
        port: int = 0,
        data_dir: Path | None = None,
        *,
        password: str | None = None,
        tls: bool = False,
    ) -> None:
        self.port = port
        self.data_dir = data_dir
        self.password = password
        self.tls = tls
        self.uri = ""
        self.certificate: Path | None = None
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._output: list[str] = []
        self._reader: threading.Thread | None = None

    def start(self) -> str:
        kept = ["--data-dir", str(self.data_dir)] if self.data_dir is not None else []
        self._lines = queue.Queue()
        self._output = []
        self._process = subprocess.Popen(
            [str(LAUNCHER), "--port", str(self.port), *kept, *self._options()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        while True:
            try:
                line = self._lines.get(timeout=START_SECONDS)
            except queue.Empty:
                self.stop()
                raise TimeoutError(f"Neo4j did not start in {START_SECONDS:.0f} s") from None
            if line is None:
                self.stop()
                raise RuntimeError("Neo4j exited before it was ready:\n" + "".join(self._output))
            found = READY.search(line)
            if found:
                self.uri = found.group(1)
                self.certificate = Path(found.group(2)) if found.group(2) else None
                self.port = int(self.uri.rsplit(":", 1)[1])  # a restart comes back on it
                return self.uri

    def _options(self) -> list[str]:
        password = ["--password", self.password] if self.password is not None else []
        return [*password, *(["--tls"] if self.tls else [])]

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        lines, output = self._lines, self._output  # this process's, not a restart's
        for line in self._process.stdout:
            output.append(line)
            lines.put(line)
        lines.put(None)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def kill(self) -> None:
        """A crash: SIGKILL, no shutdown; a kept `data_dir` is recovered by the next start."""
        if self._process is not None:
            self._process.kill()
        self.stop()

    def stop(self) -> None:
        """Close its standard input (the launcher's signal to stop), then make sure it did."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.stdin is not None:
            process.stdin.close()
        try:
            process.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=STOP_SECONDS)
        if self._reader is not None:
            self._reader.join(timeout=STOP_SECONDS)  # it ends at the output's end of file
        if process.stdout is not None:
            process.stdout.close()
