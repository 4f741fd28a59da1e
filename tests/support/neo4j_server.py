"""A throw-away Neo4j 5 for the tests: `scripts/neo4j-server`, started once per session.

The launcher runs Neo4j's own test harness in a JVM (Bolt only, auth off, data in a temporary
directory) and stops when its standard input closes, so a test run that dies takes the server
with it. Where Java or Maven is missing the Neo4j tests are skipped with that reason.
"""

import queue
import re
import shutil
import subprocess
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = ROOT / "scripts" / "neo4j-server"
READY = re.compile(r"(bolt(?:\+s)?://127\.0\.0\.1:\d+)(?: certificate=(\S+))?")
START_SECONDS = 600.0  # the first start builds the launcher and downloads Neo4j's jars
STOP_SECONDS = 30.0


def missing_tools_reason() -> str | None:
    """None when this machine can start the launcher, else why not."""
    missing = [tool for tool in ("java", "mvn") if shutil.which(tool) is None]
    if missing:
        return f"no NEO4J_URI, and {' and '.join(missing)} not found to start Neo4j's harness"
    return None


class Neo4jServer:
    """One `scripts/neo4j-server` process; `uri` is its Bolt address once `start` returns.

    `password` turns auth on (the `neo4j` user's, 8 characters or more); `tls` makes Bolt take
    TLS only, with a self-signed certificate whose PEM file is `certificate` once started.
    """

    def __init__(self, port: int = 0, *, password: str | None = None, tls: bool = False) -> None:
        self.port = port
        self.password = password
        self.tls = tls
        self.uri = ""
        self.certificate: Path | None = None
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._output: list[str] = []
        self._reader: threading.Thread | None = None

    def start(self) -> str:
        self._process = subprocess.Popen(
            [str(LAUNCHER), "--port", str(self.port), *self._options()],
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
                return self.uri

    def _options(self) -> list[str]:
        password = ["--password", self.password] if self.password is not None else []
        return [*password, *(["--tls"] if self.tls else [])]

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            self._output.append(line)
            self._lines.put(line)
        self._lines.put(None)

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
