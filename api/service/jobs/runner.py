"""Runs jobs one at a time on a background thread; resumes and takes over unfinished ones.

A runner has an `owner` name and runs a job only after claiming it (`graph.jobs.claim_job`),
renewing the claim's lease while the job runs. So several instances on one Neo4j never run a
job twice, and an instance that dies leaves its job to be taken over once its lease runs out:
each runner looks for such jobs every `SCAN_SECONDS`. On the embedded database the data
directory's lock already makes one process the only runner, so its owner name is fixed and a
restart resumes its own jobs at once.

A job interrupted by a shutdown keeps its checkpointed state and goes back to `queued` with no
owner. A job whose database goes away is put back in the queue and retried, never marked
failed for it.
"""

import logging
import queue
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from api.service.jobs.checkpoint import run_checkpoint
from api.service.jobs.context import JobContext, JobInterrupted, JobLost
from api.service.jobs.mining import run_mine
from graph.clock import utc_now
from graph.drawers import DedupPolicy
from graph.errors import CastlegraphError, GraphUnavailable
from graph.jobs import claim_job, renew_job_lease, unfinished_jobs, update_job
from graph.store import GraphStore
from resolver.errors import ErrorCode

log = logging.getLogger("castlegraph.jobs")
Executor = Callable[[JobContext], dict[str, Any]]
EXECUTORS: dict[str, Executor] = {"checkpoint": run_checkpoint, "mine": run_mine}
RETRY_SECONDS = 2.0
STOP_SECONDS = 30.0
LEASE_SECONDS = 30.0
"""How long a claim holds without renewal: an owner that died hands its job over after this."""
RENEW_SECONDS = LEASE_SECONDS / 3
SCAN_SECONDS = 10.0
"""How often an idle runner looks for jobs whose owner's lease ran out."""
RELEASED: dict[str, Any] = {"owner": None, "lease_until": None}


def _lease_end(seconds: float = LEASE_SECONDS) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class JobRunner:
    def __init__(
        self,
        store: Callable[[], GraphStore],
        policy: DedupPolicy,
        written: Callable[[str], None],
        owner: str,
    ) -> None:
        self._store = store
        self._policy = policy
        self._written = written
        self.owner = owner
        self._queue: queue.Queue[str] = queue.Queue()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="castlegraph-jobs", daemon=True)
        self.idle = threading.Event()

    def start(self) -> None:
        self._queue_claimable(resuming=True)
        self._thread.start()

    def submit(self, job_id: str) -> None:
        self.idle.clear()
        self._queue.put(job_id)

    def stop(self) -> None:
        """Ask the running job to checkpoint and return; it resumes at the next start."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(STOP_SECONDS)

    def _queue_claimable(self, *, resuming: bool = False) -> None:
        """Queue the unfinished jobs nobody holds (the claim decides for sure)."""
        now = utc_now()
        for job in unfinished_jobs(self._store()):
            if job.owner not in (None, self.owner) and (job.lease_until or "") >= now:
                continue
            if resuming or job.owner is not None:
                log.info("resuming job %s (%s) at %s items", job.id, job.kind, job.progress_done)
            self._queue.put(job.id)

    def _loop(self) -> None:
        next_scan = time.monotonic() + SCAN_SECONDS
        while not self._stopping.is_set():
            try:
                job_id = self._queue.get(timeout=0.2)
            except queue.Empty:
                self.idle.set()
                if time.monotonic() >= next_scan:
                    next_scan = time.monotonic() + SCAN_SECONDS
                    self._scan()
                continue
            try:
                self._run(job_id)
            except Exception:  # recording its end failed (the job vanished, the database went)
                # One job's bookkeeping must never stop every later job: its lease runs out and a
                # scan takes it over if it still exists.
                log.exception("job %s: its end could not be recorded", job_id)

    def _scan(self) -> None:
        try:
            self._queue_claimable()
        except GraphUnavailable as error:
            log.warning("looking for jobs to take over failed: %s", error)

    def _run(self, job_id: str) -> None:
        store = self._store()
        try:
            job = claim_job(store, job_id, self.owner, utc_now(), _lease_end())
            if job is None:
                return  # finished, or another instance runs it
            context = JobContext(store, self._policy, job, self._stopping, self._written)
            with _Heartbeat(store, job_id, self.owner, context.lost):
                result = EXECUTORS[job.kind](context)
        except JobLost:
            log.warning("job %s was taken over by another instance; left to it", job_id)
        except JobInterrupted:
            update_job(store, job_id, status="queued", **RELEASED)
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
            update_job(
                store, job_id, status="succeeded", result=result, finished_at=utc_now(), **RELEASED
            )

    @staticmethod
    def _fail(store: GraphStore, job_id: str, error: dict[str, Any]) -> None:
        update_job(store, job_id, status="failed", error=error, finished_at=utc_now(), **RELEASED)


class _Heartbeat:
    """Renews a running job's lease in the background; sets `lost` if another owner took it."""

    def __init__(self, store: GraphStore, job_id: str, owner: str, lost: threading.Event) -> None:
        self._store, self._owner = store, owner
        self._job_id = job_id
        self._lost = lost
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="job-lease", daemon=True)

    def __enter__(self) -> "_Heartbeat":
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._done.set()
        self._thread.join(STOP_SECONDS)

    def _beat(self) -> None:
        while not self._done.wait(RENEW_SECONDS):
            try:
                if not renew_job_lease(self._store, self._job_id, self._owner, _lease_end()):
                    self._lost.set()
                    return
            except GraphUnavailable as error:
                log.warning("renewing the lease of job %s failed: %s", self._job_id, error)
