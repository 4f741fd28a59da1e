"""Runs jobs one at a time on a background thread, and resumes unfinished ones at start.

A job interrupted by a shutdown keeps its checkpointed state and status `queued`, and a job
interrupted by a crash is found `running`: both are picked up again by the next start. A job
whose database goes away is put back in the queue and retried, never marked failed for it.
"""

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from api.service.jobs.checkpoint import run_checkpoint
from api.service.jobs.context import JobContext, JobInterrupted
from api.service.jobs.mining import run_mine
from graph.clock import utc_now
from graph.drawers import DedupPolicy
from graph.errors import CastlegraphError, GraphUnavailable
from graph.jobs import Job, get_job, unfinished_jobs, update_job
from graph.store import GraphStore
from resolver.errors import ErrorCode

log = logging.getLogger("castlegraph.jobs")
Executor = Callable[[JobContext], dict[str, Any]]
EXECUTORS: dict[str, Executor] = {"checkpoint": run_checkpoint, "mine": run_mine}
RETRY_SECONDS = 2.0
STOP_SECONDS = 30.0


class JobRunner:
    def __init__(
        self,
        store: Callable[[], GraphStore],
        policy: DedupPolicy,
        written: Callable[[str], None],
    ) -> None:
        self._store = store
        self._policy = policy
        self._written = written
        self._queue: queue.Queue[str] = queue.Queue()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="castlegraph-jobs", daemon=True)
        self.idle = threading.Event()

    def start(self) -> None:
        for job in unfinished_jobs(self._store()):
            log.info("resuming job %s (%s) at %s items", job.id, job.kind, job.progress_done)
            self._queue.put(job.id)
        self._thread.start()

    def submit(self, job: Job) -> None:
        self.idle.clear()
        self._queue.put(job.id)

    def stop(self) -> None:
        """Ask the running job to checkpoint and return; it resumes at the next start."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(STOP_SECONDS)

    def _loop(self) -> None:
        while not self._stopping.is_set():
            try:
                job_id = self._queue.get(timeout=0.2)
            except queue.Empty:
                self.idle.set()
                continue
            self._run(job_id)

    def _run(self, job_id: str) -> None:
        store = self._store()
        try:
            job = get_job(store, job_id)
            if job.status not in ("queued", "running"):
                return
            job = update_job(
                store, job_id, status="running", started_at=job.started_at or utc_now()
            )
            result = EXECUTORS[job.kind](
                JobContext(store, self._policy, job, self._stopping, self._written)
            )
        except JobInterrupted:
            update_job(store, job_id, status="queued")
            log.info("job %s checkpointed for the next start", job_id)
        except GraphUnavailable as error:
            log.warning("job %s paused, the database is unavailable: %s", job_id, error)
            if not self._stopping.wait(RETRY_SECONDS):
                self._queue.put(job_id)
        except CastlegraphError as error:
            self._fail(store, job_id, {"code": error.code, "message": error.message})
        except Exception as error:
            log.exception("job %s failed", job_id)
            self._fail(store, job_id, {"code": ErrorCode.INTERNAL_ERROR, "message": str(error)})
        else:
            update_job(store, job_id, status="succeeded", result=result, finished_at=utc_now())

    @staticmethod
    def _fail(store: GraphStore, job_id: str, error: dict[str, Any]) -> None:
        update_job(store, job_id, status="failed", error=error, finished_at=utc_now())
