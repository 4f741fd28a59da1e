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

Nothing a job does stops the runner (design §11): a job cancelled on any instance stops at its
next save; one whose node disappeared is dropped with a log line; one whose service died during
each of its last two runs is failed at its third start (`graph.jobs.claim_job`). Finished jobs
older than 30 days are pruned at start and every `PRUNE_SECONDS`.
"""

import logging
import queue
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from castlegraph.api.errors import ApiError
from castlegraph.api.service.jobs.ahead import AheadPreparer
from castlegraph.api.service.jobs.checkpoint import run_checkpoint
from castlegraph.api.service.jobs.context import JobCancelled, JobContext, JobInterrupted, JobLost
from castlegraph.api.service.jobs.mining import run_mine
from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.clock import utc_now
from castlegraph.graph.drawers.drawer_request import DedupPolicy
from castlegraph.graph.errors import CastlegraphError, GraphUnavailable, JobNotFound
from castlegraph.graph.indexes.drawer_index import DrawerIndex
from castlegraph.graph.jobs import (
    claim_job,
    prune_jobs,
    renew_job_lease,
    save_job_progress,
    unfinished_jobs,
    update_job,
)
from castlegraph.resolver.errors import ErrorCode

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
PRUNE_SECONDS = 24 * 3600.0
JOB_FAILED = "the job failed; the service log has the detail"
"""All a client hears of a job's bug: no traceback, database text or server path (design §7)."""
"""How often finished jobs past their keeping time are pruned (and once at start)."""
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
        drawer_index: DrawerIndex | None = None,
    ) -> None:
        self._store = store
        self._drawer_index = drawer_index
        self._policy = policy
        self._preparer = AheadPreparer(policy.near_threshold)
        self._written = written
        self.owner = owner
        self._queue: queue.Queue[str] = queue.Queue()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="castlegraph-jobs", daemon=True)
        self.idle = threading.Event()
        self._paused: set[str] = set()
        """Jobs this runner put aside while its database was away: resuming them is no new
        start (`claim_job(paused=True)`)."""

    def start(self) -> None:
        self._prune()
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
        self._preparer.close()

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
        next_prune = time.monotonic() + PRUNE_SECONDS
        while not self._stopping.is_set():
            try:
                job_id = self._queue.get(timeout=0.2)
            except queue.Empty:
                self.idle.set()
                if time.monotonic() >= next_scan:
                    next_scan = time.monotonic() + SCAN_SECONDS
                    self._scan()
                if time.monotonic() >= next_prune:
                    next_prune = time.monotonic() + PRUNE_SECONDS
                    self._prune()
                continue
            try:
                self._run(job_id)
            except JobNotFound:
                log.warning("job %s disappeared while it ran; dropped", job_id)
            except Exception:  # the loop outlives any one job: later jobs must still run
                log.exception("job %s could not be run or recorded", job_id)

    def _prune(self) -> None:
        try:
            pruned = prune_jobs(self._store())
        except GraphUnavailable as error:
            log.warning("pruning finished jobs failed: %s", error)
            return
        if pruned:
            log.info("pruned %s finished jobs", pruned)

    def _scan(self) -> None:
        try:
            self._queue_claimable()
        except GraphUnavailable as error:
            log.warning("looking for jobs to take over failed: %s", error)

    def _run(self, job_id: str) -> None:
        if not self._drawer_index_settled():
            return  # stopping: the job stays queued for the next start
        store = self._store()
        paused = job_id in self._paused
        self._paused.discard(job_id)
        try:
            job = claim_job(store, job_id, self.owner, utc_now(), _lease_end(), paused=paused)
            if job is None:
                return  # finished, or another instance runs it
            if job.status == "failed":
                log.error("job %s failed: %s", job_id, (job.error or {}).get("message"))
                return
            context = JobContext(
                store,
                self._policy,
                job,
                self._stopping,
                self._written,
                drawer_index=self._drawer_index,
                preparer=self._preparer,
            )
            with _Heartbeat(store, job_id, self.owner, context.lost):
                result = EXECUTORS[job.kind](context)
        except JobLost:
            log.warning("job %s was taken over by another instance; left to it", job_id)
        except JobCancelled:
            save_job_progress(store, job_id, self.owner, **RELEASED)
            log.info("job %s cancelled; what it stored stays", job_id)
        except JobInterrupted:
            # A clean stop: the next start is not one after a death, so starts count from 0.
            update_job(store, job_id, status="queued", attempts=0, **RELEASED)
            log.info("job %s checkpointed for the next start", job_id)
        except GraphUnavailable as error:
            log.warning("job %s paused, the database is unavailable: %s", job_id, error)
            self._paused.add(job_id)
            if not self._stopping.wait(RETRY_SECONDS):
                self._queue.put(job_id)
        except JobNotFound:
            log.warning("job %s disappeared while it ran; dropped", job_id)
        except CastlegraphError as error:
            self._fail(store, job_id, job_error(job_id, error))
        except Exception:
            log.exception("job %s failed", job_id)  # the traceback and its paths: log only
            self._fail(store, job_id, {"code": ErrorCode.INTERNAL_ERROR, "message": JOB_FAILED})
        else:
            update_job(
                store, job_id, status="succeeded", result=result, finished_at=utc_now(), **RELEASED
            )

    def _drawer_index_settled(self) -> bool:
        """Jobs are background work: where the database keeps no term index while the
        in-memory one builds (FalkorDB, design §5.4), they wait for it without bound instead
        of being refused as a request is; False if the service stops first."""
        index = self._drawer_index
        while index is not None and not index.database_answers and not index.settled(0.2):
            if self._stopping.is_set():
                return False
        return True

    @staticmethod
    def _fail(store: GraphStore, job_id: str, error: dict[str, Any]) -> None:
        update_job(store, job_id, status="failed", error=error, finished_at=utc_now(), **RELEASED)


def job_error(job_id: str, error: CastlegraphError) -> dict[str, Any]:
    """What a failed job tells its clients: an answer's code and message, or, for a bug (status
    500: a refused statement, whose text is the database's), only that it failed (design §7)."""
    if error.status == 500 and not isinstance(error, ApiError):
        log.error("job %s failed: %s %s", job_id, error.code, error.log_text())
        return {"code": ErrorCode.INTERNAL_ERROR, "message": JOB_FAILED}
    return {"code": error.code, "message": error.message}


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
