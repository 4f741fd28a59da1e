"""Runs jobs one at a time on a background thread; resumes and takes over unfinished ones.

A runner runs a job only after claiming it (`graph.jobs.claim_job`) and renews the claim's
lease while it runs, so instances on one Neo4j never run a job twice and a dead instance's job
is taken over once its lease runs out (design §2.2). Nothing a job does stops the runner
(design §11); a job whose database goes away is queued again, never failed for it.
"""

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from castlegraph.api.service.jobs.ahead import AheadPreparer
from castlegraph.api.service.jobs.checkpoint import run_checkpoint
from castlegraph.api.service.jobs.context import JobCancelled, JobContext, JobInterrupted, JobLost
from castlegraph.api.service.jobs.mining import run_mine
from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.clock import utc_now
from castlegraph.graph.drawers.drawer_request import DedupPolicy
from castlegraph.graph.errors import GraphUnavailable, JobNotFound
from castlegraph.graph.indexes.drawer_index import DrawerIndex
from castlegraph.graph.jobs import (
    JOB_LEASE_SECONDS,
    Job,
    claim_job,
    claimable_jobs,
    end_job,
    prune_jobs,
    renew_job_lease,
    save_job_progress,
)
from castlegraph.resolver.errors import CastlegraphError, ErrorCode

log = logging.getLogger("castlegraph.jobs")
Executor = Callable[[JobContext], dict[str, Any]]
EXECUTORS: dict[str, Executor] = {"checkpoint": run_checkpoint, "mine": run_mine}
RETRY_SECONDS = 2.0
STOP_SECONDS = 30.0
BEATS_PER_LEASE = 3
"""A runner renews its lease, and an idle one looks for leases that ran out, this many times a
lease (`graph.job_lease_seconds`)."""
PRUNE_SECONDS = 24 * 3600.0
"""How often finished jobs past their keeping time are pruned (and once at start)."""
JOB_FAILED = "the job failed; the service log has the detail"
"""All a client hears of a job's bug: no traceback, database text or server path (design §7)."""
RELEASED: dict[str, Any] = {"owner": None, "lease_expires": None}


class JobRunner:
    """The jobs of one `owner`. On the embedded database the data directory's lock already
    makes one process the only runner, so its owner name is fixed and a restart resumes its
    own jobs at once; elsewhere an idle runner looks for leases that ran out three times a
    lease (`lease_seconds`)."""

    def __init__(
        self,
        store: Callable[[], GraphStore],
        policy: DedupPolicy,
        written: Callable[[str], None],
        owner: str,
        drawer_index: DrawerIndex | None = None,
        lease_seconds: float = JOB_LEASE_SECONDS,
    ) -> None:
        self._store = store
        self._lease_ms = int(lease_seconds * 1000)
        self._beat_seconds = lease_seconds / BEATS_PER_LEASE
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
        """Ask the running job to checkpoint and return: it keeps its saved state, goes back to
        `queued` with no owner, and resumes at the next start."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(STOP_SECONDS)
        self._preparer.close()

    def _queue_claimable(self, *, resuming: bool = False) -> None:
        """Queue the unfinished jobs nobody holds (the claim decides for sure)."""
        for job in claimable_jobs(self._store(), self.owner):
            if resuming or job.owner is not None:
                log.info("resuming job %s (%s) at %s items", job.id, job.kind, job.progress_done)
            self._queue.put(job.id)

    def _loop(self) -> None:
        next_scan = time.monotonic() + self._beat_seconds
        next_prune = time.monotonic() + PRUNE_SECONDS
        while not self._stopping.is_set():
            try:
                job_id = self._queue.get(timeout=0.2)
            except queue.Empty:
                self.idle.set()
                if time.monotonic() >= next_scan:
                    next_scan = time.monotonic() + self._beat_seconds
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
            job = claim_job(store, job_id, self.owner, self._lease_ms, paused=paused)
        except GraphUnavailable as error:
            self._pause(job_id, error)
            return
        if job is None:
            return  # finished, or another instance runs it
        if job.status == "failed":
            log.error("job %s failed: %s", job_id, (job.error or {}).get("message"))
            return
        self._run_claimed(store, job)

    def _run_claimed(self, store: GraphStore, job: Job) -> None:
        """Run a job this runner claimed; every write it makes names the claim (`job.claim`),
        so once another instance takes the job over, none changes it."""
        job_id = job.id
        try:
            context = JobContext(
                store,
                self._policy,
                job,
                self._stopping,
                self._written,
                drawer_index=self._drawer_index,
                preparer=self._preparer,
            )
            with _Heartbeat(store, job, context.lost, self._lease_ms, self._beat_seconds):
                result = EXECUTORS[job.kind](context)
        except JobLost:
            log.warning("job %s was taken over by another instance; left to it", job_id)
        except JobCancelled:
            save_job_progress(store, job_id, self.owner, job.claim, **RELEASED)
            log.info("job %s cancelled; what it stored stays", job_id)
        except JobInterrupted:
            # A clean stop: the next start is not one after a death, so starts count from 0.
            if _end(store, job, status="queued", attempts=0):
                log.info("job %s checkpointed for the next start", job_id)
        except GraphUnavailable as error:
            self._pause(job_id, error)
        except JobNotFound:
            log.warning("job %s disappeared while it ran; dropped", job_id)
        except CastlegraphError as error:
            _fail(store, job, job_error(job_id, error))
        except Exception:
            log.exception("job %s failed", job_id)  # the traceback and its paths: log only
            _fail(store, job, {"code": ErrorCode.INTERNAL_ERROR, "message": JOB_FAILED})
        else:
            _end(store, job, status="succeeded", result=result, finished_at=utc_now())

    def _pause(self, job_id: str, error: GraphUnavailable) -> None:
        """Put a job aside while its database is away, and queue it again soon."""
        log.warning("job %s paused, the database is unavailable: %s", job_id, error)
        self._paused.add(job_id)
        if not self._stopping.wait(RETRY_SECONDS):
            self._queue.put(job_id)

    def _drawer_index_settled(self) -> bool:
        """Jobs are background work: where the database keeps no term index while the
        in-memory one builds (FalkorDB, design §5.4), they wait for it without bound instead
        of being refused as a request is; False if the service stops first."""
        index = self._drawer_index
        while index is not None and not index.database_answers and not index.settled(0.2):
            if self._stopping.is_set():
                return False
        return True


def _end(store: GraphStore, job: Job, **changes: Any) -> bool:
    """End this runner's run of `job` and release it; False, changing nothing, when its claim
    no longer holds the job (another instance took it over, or it was cancelled)."""
    if end_job(store, job.id, job.owner or "", job.claim, **changes, **RELEASED):
        return True
    log.warning("job %s was taken over or cancelled before its run ended; left as it is", job.id)
    return False


def _fail(store: GraphStore, job: Job, error: dict[str, Any]) -> None:
    _end(store, job, status="failed", error=error, finished_at=utc_now())


def job_error(job_id: str, error: CastlegraphError) -> dict[str, Any]:
    """What a failed job tells its clients: an answer's code and message, or, for a bug (a
    refused statement, whose text is the database's), only that it failed (design §7)."""
    if error.bug:
        log.error("job %s failed: %s %s", job_id, error.code, error.log_text())
        return {"code": ErrorCode.INTERNAL_ERROR, "message": JOB_FAILED}
    return {"code": error.code, "message": error.message}


class _Heartbeat:
    """Renews a running job's lease in the background; sets `lost` if another owner took it."""

    def __init__(
        self,
        store: GraphStore,
        job: Job,
        lost: threading.Event,
        lease_ms: int,
        every_seconds: float,
    ) -> None:
        self._store, self._job = store, job
        self._lost = lost
        self._lease_ms, self._every_seconds = lease_ms, every_seconds
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._beat, name="job-lease", daemon=True)

    def __enter__(self) -> "_Heartbeat":
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._done.set()
        self._thread.join(STOP_SECONDS)

    def _beat(self) -> None:
        while not self._done.wait(self._every_seconds):
            try:
                job = self._job
                if not renew_job_lease(
                    self._store, job.id, job.owner or "", job.claim, self._lease_ms
                ):
                    self._lost.set()
                    return
            except GraphUnavailable as error:
                log.warning("renewing the lease of job %s failed: %s", self._job.id, error)
