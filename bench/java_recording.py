"""Where a JVM's (Neo4j's) CPU goes: a Java Flight Recording of a stretch of work, by thread.

`recording(pid, path)` records the JVM `pid` while its block runs (`jcmd`, the JDK's, with the
`profile` settings: a stack every ~10 ms of each thread running Java), and `thread_shares(path)`
reads the execution samples back (`jfr print`), grouped by thread: a statement runs on a Bolt
worker, Lucene merges its segments on threads of its own, the full-text updates on another.
"""

import json
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

RECORDING = "castlegraph-bench"
EXECUTION = "jdk.ExecutionSample"
_DETAIL = re.compile(r"\s*\[.*\]$")
_NUMBER = re.compile(r"[-\s#]*\d+$")


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} (the JDK's) is not on PATH: a flight recording needs it")
    return found


@contextmanager
def recording(pid: int, path: Path) -> Iterator[None]:
    """Record the JVM `pid` into `path` while the block runs."""
    jcmd = _tool("jcmd")
    start = [jcmd, str(pid), "JFR.start", f"name={RECORDING}", "settings=profile"]
    subprocess.run(start, check=True, capture_output=True)
    try:
        yield
    finally:
        stop = [jcmd, str(pid), "JFR.stop", f"name={RECORDING}", f"filename={path}"]
        subprocess.run(stop, check=True, capture_output=True)


def thread_group(name: str) -> str:
    """A thread's name without what differs between threads of one pool: `neo4j.BoltWorker-4
    [bolt-2 - /127.0.0.1:52984]` is `neo4j.BoltWorker`, `Lucene Merge Thread #52` is `Lucene
    Merge Thread`."""
    return _NUMBER.sub("", _DETAIL.sub("", name)) or name


def shares(threads: Iterable[str]) -> list[tuple[str, float]]:
    """Each group's share of the samples (one thread name a sample), largest first."""
    counts = Counter(thread_group(name) for name in threads)
    total = sum(counts.values())
    return [(group, count / total) for group, count in counts.most_common()]


def thread_shares(path: Path) -> tuple[int, list[tuple[str, float]]]:
    """How many execution samples the recording holds, and each thread group's share."""
    printed = subprocess.run(
        # Only the thread is read: one frame a stack, not five (40 batches: 5.2 MB of JSON, not 24).
        [_tool("jfr"), "print", "--json", "--stack-depth", "1", "--events", EXECUTION, str(path)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    events = json.loads(printed)["recording"]["events"]
    names = [e["values"]["sampledThread"].get("javaName") or "?" for e in events]
    return len(names), shares(names)
