"""`bench.service.child_pids`: the service's embedded database is found whichever thread
started it (the service starts it from a worker thread, and Linux lists a child under the
thread that forked it, in `/proc/PID/task/TID/children`)."""

import os
import subprocess
import sys
import threading
from pathlib import Path

from bench.service import child_pids

WAIT_SECONDS = 30.0


def test_a_child_started_from_a_worker_thread_is_found() -> None:
    started: list[subprocess.Popen[bytes]] = []
    ready, done = threading.Event(), threading.Event()

    def start_and_stay() -> None:
        command = [sys.executable, "-c", "import sys; sys.stdin.read()"]
        started.append(subprocess.Popen(command, stdin=subprocess.PIPE))
        ready.set()
        done.wait(WAIT_SECONDS)  # the thread outlives the check: its task lists the child

    thread = threading.Thread(target=start_and_stay)
    thread.start()
    try:
        assert ready.wait(WAIT_SECONDS)
        child = started[0].pid
        main_thread = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children")
        assert str(child) not in main_thread.read_text().split()
        assert child in child_pids(os.getpid())
    finally:
        done.set()
        thread.join()
        for process in started:
            process.communicate(b"")
