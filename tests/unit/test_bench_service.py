"""`bench.service.child_pids`: the service's embedded database is found whichever thread
started it (the service starts it from a worker thread, and Linux lists a child under the
thread that forked it, in `/proc/PID/task/TID/children`); its other children (the worker that
prepares a job's texts) count as the service's memory, not the database's."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import httpx

from bench.service import (
    child_pids,
    database_children,
    rss_mb,
    service_rss_mb,
    statement_counts,
)

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


def test_a_child_that_is_not_the_database_counts_as_the_service() -> None:
    command = [sys.executable, "-c", "import sys; sys.stdin.read()"]
    worker = subprocess.Popen(command, stdin=subprocess.PIPE)
    try:
        own, child = rss_mb(os.getpid()), rss_mb(worker.pid)
        assert own is not None and child is not None
        assert worker.pid in child_pids(os.getpid())
        assert worker.pid not in database_children(os.getpid())
        total = service_rss_mb(os.getpid())
        assert total is not None and total >= 0.95 * (own + child)  # both, read a moment apart
    finally:
        worker.communicate(b"")


def test_statement_counts_read_the_services_metrics_without_the_scrapes_own() -> None:
    exposition = "\n".join(
        [
            "# TYPE castlegraph_graph_statement_duration_seconds histogram",
            'castlegraph_graph_statement_duration_seconds_bucket{le="0.001",statement="x"} 1.0',
            'castlegraph_graph_statement_duration_seconds_count{statement="create_drawer"} 12.0',
            'castlegraph_graph_statement_duration_seconds_sum{statement="create_drawer"} 0.02',
            'castlegraph_graph_statement_duration_seconds_count{statement="job_status_counts"} 3.0',
            'castlegraph_http_requests_total{method="POST",route="/x",status="201"} 7.0',
        ]
    )
    transport = httpx.MockTransport(lambda request: httpx.Response(200, text=exposition))
    with httpx.Client(transport=transport, base_url="http://service") as client:
        assert statement_counts(client) == {"create_drawer": 12}
