"""Durable jobs, recorded in the graph as `(:Job)` so that they survive a crash (design §4.4).

A job keeps its parameters, status, progress, result and error, plus a `state` checkpoint its
runner writes as it goes; maps are stored as JSON strings (neither backend stores maps). A job
runs on one instance at a time under a lease and a fencing `claim` (design §2.2, see
`claim_job`), cannot hurt the service (design §11) and has owners and bounds (design §8.1).
"""

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from castlegraph.graph.backends.store import GraphStore, Row, Tx
from castlegraph.graph.batches import delete_in_batches
from castlegraph.graph.clock import utc_now
from castlegraph.graph.errors import JobNotFound, TooManyJobs
from castlegraph.resolver.errors import ErrorCode

JobStatus = Literal["queued", "running", "succeeded", "failed", "cancelled"]
FINISHED: tuple[JobStatus, ...] = ("succeeded", "failed", "cancelled")
MAX_STARTS = 2
"""Starts a job may have without finishing (the service died during each) before the next
start fails it instead: a job that kills its service must not kill it again at every restart."""
JOB_LEASE_SECONDS = 30.0
"""How long a claim holds without renewal, on the database's clock, unless
`graph.job_lease_seconds` says otherwise: an owner that died hands its job over after this."""
KEEP_DAYS = 30
"""Finished jobs older than this are pruned."""
PRUNE_BATCH = 1000
JOB_NAMESPACE = uuid.UUID("6f1d4c1e-6a52-4d0b-9a8e-2f9a3c1b7d40")


@dataclass(frozen=True, slots=True)
class Job:
    id: str
    kind: str
    status: JobStatus
    params: dict[str, Any]
    progress_done: int
    progress_total: int | None
    result: dict[str, Any] | None
    error: dict[str, Any] | None
    state: dict[str, Any]
    created_at: str
    started_at: str | None
    finished_at: str | None
    owner: str | None = None
    lease_expires: int | None = None
    """When the owner's lease runs out: epoch ms on the database's clock."""
    claim: int = 0
    """How many claims the job has had: the fencing token of its current owner's writes."""
    attempts: int = 0
    files: list[str] | None = None
    """A mining job's file list, written once when it is first listed."""
    failures: list[dict[str, Any]] = field(default_factory=list)
    """Items that could not be stored, written only when one is added."""
    item_count: int | None = None
    """How many items a checkpoint holds: `params` has the items themselves only in the job
    `claim_job` returns (the other reads leave them in the graph)."""
    agent: str | None = None
    """The agent whose token queued the job; None for an operator's (design §8.1)."""

    def visible_to(self, viewer: str | None) -> bool:
        """Whether a caller sees the job: an operator (`viewer` None) every job, an agent its
        own only (one that names no agent is an operator's)."""
        return viewer is None or self.agent == viewer

    @classmethod
    def from_props(cls, props: dict[str, Any]) -> "Job":
        def load(name: str) -> Any:
            raw = props.get(name)
            return json.loads(raw) if raw else None

        params = load("params") or {}
        items = load("items")
        if items is not None:
            params["items"] = items
        count = props.get("item_count")
        return cls(
            id=props["id"],
            kind=props["kind"],
            status=props["status"],
            params=params,
            progress_done=int(props.get("progress_done") or 0),
            progress_total=props.get("progress_total"),
            result=load("result"),
            error=load("error"),
            state=load("state") or {},
            created_at=props["created_at"],
            started_at=props.get("started_at"),
            finished_at=props.get("finished_at"),
            owner=props.get("owner"),
            lease_expires=props.get("lease_expires"),
            claim=int(props.get("claim") or 0),
            attempts=int(props.get("attempts") or 0),
            files=load("files"),
            failures=load("failures") or [],
            item_count=None if count is None else int(count),
            agent=props.get("agent"),
        )


def item_id(job_id: str, index: int | str) -> str:
    """The id of the drawer a job stores for item `index`: a resumed job finds it again."""
    return str(uuid.uuid5(JOB_NAMESPACE, f"{job_id}:{index}"))


JOB_QUEUE = "job_queue"
"""The lock a job's creation takes when its caller's queue is bounded: two requests counting
at once could each see room for one more."""


def create_job(
    store: GraphStore,
    kind: str,
    params: dict[str, Any],
    total: int | None,
    *,
    agent: str | None = None,
    max_queued: int | None = None,
) -> Job:
    """Record a queued job for `agent` (None: an operator). With `max_queued`, refused with
    `TooManyJobs` when that caller has as many queued or running already.

    A checkpoint's items are stored apart from its other parameters (`items`, with their number in
    `item_count`) and only a claim reads them back, so a poll does not read and parse megabytes
    (design §4.4). Jobs stored before keep their items inside `params`, and still run.

    A job records the agent whose token queued it (`agent`; None: an operator's, or a job from
    before agents were recorded). An agent sees and cancels only its own jobs, and another's answers
    as an unknown id does; a caller has at most `max_queued` jobs queued or running, counted under a
    lock in the transaction that adds one.
    """
    props: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "kind": kind,
        "status": "queued",
        "params": json.dumps(params),
        "progress_done": 0,
        "created_at": utc_now(),
    }
    items = params.get("items")
    if isinstance(items, list):
        props["params"] = json.dumps({k: v for k, v in params.items() if k != "items"})
        props["items"] = json.dumps(items)
        props["item_count"] = len(items)
    if total is not None:
        props["progress_total"] = total
    if agent is not None:
        props["agent"] = agent

    def create(tx: Tx) -> Job:
        if max_queued is not None:
            tx.lock(JOB_QUEUE)
            queued = int(tx.run("count_queued_jobs", agent=agent)[0]["jobs"])
            if queued >= max_queued:
                raise TooManyJobs(queued, max_queued)
        return Job.from_props(tx.run("create_job", props=props)[0]["job"])

    return store.write(create, use_case="create_job")


def _get(tx: Tx, job_id: str, viewer: str | None = None) -> Job:
    """The job; one `viewer` may not see is missing, with the answer of an unknown id."""
    rows = tx.run("job_by_id", id=job_id)
    job = Job.from_props(rows[0]["job"]) if rows else None
    if job is None or not job.visible_to(viewer):
        raise JobNotFound(job_id)
    return job


WHOLE_READ_ATTEMPTS = 5
"""How many times `_whole` reads while a read shows a job finished without what finished it;
the last read is taken as it is."""


def _finished_whole(job: Job) -> bool:
    """Whether a finished job shows what the statement that finished it wrote with its status:
    its `finished_at`, and its result or its error."""
    if job.status not in FINISHED:
        return True
    if job.status == "succeeded" and job.result is None:
        return False
    if job.status == "failed" and job.error is None:
        return False
    return job.finished_at is not None


def _whole(store: GraphStore, read: Callable[[Tx], list[Job]], use_case: str) -> list[Job]:
    """`read`, again while it shows a job finished without its result, error or time. Neo4j
    takes no lock to read, and a read may meet a statement's changes of one node half applied:
    a client polling a job saw `succeeded` without the result set in the same statement (once,
    in a run of the test suite; 3,000 reads of one node's properties while another
    transaction kept setting two of them came torn twice). The next read sees it whole."""
    jobs = store.read(read, use_case=use_case)
    for _ in range(WHOLE_READ_ATTEMPTS - 1):
        if all(map(_finished_whole, jobs)):
            break
        jobs = store.read(read, use_case=use_case)
    return jobs


def get_job(store: GraphStore, job_id: str, *, viewer: str | None = None) -> Job:
    [job] = _whole(store, lambda tx: [_get(tx, job_id, viewer)], "get_job")
    return job


def recent_jobs(store: GraphStore, limit: int, *, viewer: str | None = None) -> list[Job]:
    """The newest jobs `viewer` may see (an operator: every job)."""

    def read(tx: Tx) -> list[Job]:
        rows = tx.run("recent_jobs", limit=limit, agent=viewer)
        return [Job.from_props(row["job"]) for row in rows]

    return _whole(store, read, "recent_jobs")


def claimable_jobs(store: GraphStore, owner: str) -> list[Job]:
    """The unfinished jobs `owner` may claim (its own, nobody's, or with a lease run out on the
    database's clock); the claim decides for sure."""
    rows = store.read(lambda tx: tx.run("claimable_jobs", owner=owner), use_case="claimable_jobs")
    return [Job.from_props(row["job"]) for row in rows]


def maps_as_json(changes: dict[str, Any]) -> dict[str, Any]:
    """Changes with their dicts as JSON text: neither backend stores maps."""
    return {
        name: json.dumps(value) if isinstance(value, dict) else value
        for name, value in changes.items()
    }


JOB_CLAIMS = "job_claims"
"""The lock every claim takes first: claims are rare, and a lease read without it could be
read free by two instances at once (on Neo4j a read takes no lock)."""


def claim_job(
    store: GraphStore, job_id: str, owner: str, lease_ms: int, *, paused: bool = False
) -> Job | None:
    """Make `owner` the job's runner for `lease_ms` on the database's clock, under a new `claim`
    (its fencing token); None when it is finished or another owner's lease still runs.

    Every start counts in `attempts`, but for `paused` (this runner put the job aside itself,
    its database being away: no death). A job found `running` was started and never finished:
    its service died. When that start was already its `MAX_STARTS`-th, the job comes back
    `failed` with that reason instead of starting again.

    The lease (`lease_expires`) is epoch ms on the database's clock, as instances' clocks may
    disagree; the runner renews it while it runs, and a lease nobody renewed (its owner died) lets
    another runner claim the job and resume it from its state. Every later write of the runner (a
    renewal, a save, the job's end) names its owner and claim and changes nothing once another claim
    took the job. Each of those statements takes the job's write lock before it compares them: Neo4j
    reads without locks, and a renewal that compared the owner, then wrote, could land on a job
    another instance had just claimed.
    """

    now = utc_now()

    def claim(tx: Tx) -> Job | None:
        tx.lock(JOB_CLAIMS)
        count = 0 if paused else 1
        rows = tx.run("claim_job", id=job_id, owner=owner, now=now, lease_ms=lease_ms, count=count)
        if not rows:
            return None
        job = Job.from_props(rows[0]["job"])
        if rows[0]["was"] != "running" or job.attempts <= MAX_STARTS:
            return job
        error = {
            "code": ErrorCode.INTERNAL_ERROR,
            "message": f"the service stopped during each of its last {MAX_STARTS} runs; "
            "not resumed again",
        }
        changes = {
            "status": "failed",
            "error": json.dumps(error),
            "finished_at": now,
            "owner": None,
            "lease_expires": None,
        }
        return Job.from_props(tx.run("update_job", id=job_id, changes=changes)[0]["job"])

    return store.write(claim, use_case="claim_job")


@dataclass(frozen=True, slots=True)
class Saved:
    """What a progress save learns: the job's status, and whether the save was made (False:
    another owner holds the job now)."""

    status: JobStatus
    held: bool


@dataclass(frozen=True, slots=True)
class ProgressSave:
    """A progress save made by another statement of the batch it records (a checkpoint's last
    `create_drawers`, `graph.drawers.drawer_batch`), under `save_job_progress`'s rules: the
    batch and its progress are then one write, and a crash leaves both or neither."""

    job_id: str
    owner: str
    claim: int
    changes: dict[str, Any]
    """The fields to set, dicts and lists already JSON text."""

    @classmethod
    def of(cls, job_id: str, owner: str, claim: int, /, **changes: Any) -> "ProgressSave":
        return cls(job_id, owner, claim, _progress_json(changes))

    def params(self) -> dict[str, Any]:
        """The parameters a statement that saves it takes (`save_job_progress`'s)."""
        return {
            "id": self.job_id,
            "owner": self.owner,
            "claim": self.claim,
            "changes": self.changes,
        }


NO_PROGRESS_SAVE: dict[str, Any] = {"id": None, "owner": None, "claim": None, "changes": {}}
"""The parameters of a statement that can save a job's progress, for a write of no job: it
matches no job and sets nothing."""


def _progress_json(changes: dict[str, Any]) -> dict[str, Any]:
    return {
        name: json.dumps(value) if isinstance(value, dict | list) else value
        for name, value in changes.items()
    }


def saved_progress(row: Row) -> Saved:
    """What a progress save answered (`status`, `held`)."""
    return Saved(status=row["status"], held=bool(row["held"]))


def save_progress_in(tx: Tx, save: ProgressSave) -> Saved:
    """`save` as its own statement of the transaction `tx`."""
    rows = tx.run("save_job_progress", **save.params())
    if not rows:
        raise JobNotFound(save.job_id)
    return saved_progress(rows[0])


def save_job_progress(
    store: GraphStore, job_id: str, owner: str, claim: int, /, **changes: Any
) -> Saved:
    """Set only the given fields (dicts as JSON text) while `owner`'s `claim` holds the job;
    the answer is two small values whatever the job holds, so a save costs the same at any
    item."""
    save = ProgressSave.of(job_id, owner, claim, **changes)
    return store.write(lambda tx: save_progress_in(tx, save), use_case="save_job_progress")


def cancel_job(store: GraphStore, job_id: str, *, viewer: str | None = None) -> tuple[Job, bool]:
    """Cancel a queued or running job (its runner stops at its next save): the job, and
    whether this call cancelled it (False: it had finished, and is returned unchanged). What
    the job stored stays; its items go. A job `viewer` may not see is not found."""

    def cancel(tx: Tx) -> tuple[Job, bool]:
        _get(tx, job_id, viewer)  # an agent and the job's agent never change: check, then act
        changed = bool(tx.run("cancel_job", id=job_id, now=utc_now()))
        return _get(tx, job_id), changed

    return store.write(cancel, use_case="cancel_job")


def prune_jobs(store: GraphStore, now: datetime | None = None) -> int:
    """Delete the jobs that finished more than `KEEP_DAYS` ago; how many."""
    moment = (now or datetime.now(UTC)) - timedelta(days=KEEP_DAYS)
    before = moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return delete_in_batches(store, "prune_jobs", batch=PRUNE_BATCH, before=before)


def renew_job_lease(store: GraphStore, job_id: str, owner: str, claim: int, lease_ms: int) -> bool:
    """Extend a running job's lease to `lease_ms` from now on the database's clock; False when
    `owner`'s `claim` no longer holds the job."""
    rows = store.write(
        lambda tx: tx.run(
            "renew_job_lease", id=job_id, owner=owner, claim=claim, lease_ms=lease_ms
        ),
        use_case="renew_job_lease",
    )
    return bool(rows)


def end_job(store: GraphStore, job_id: str, owner: str, claim: int, /, **changes: Any) -> bool:
    """Set the fields that end `owner`'s run of the job — succeeded, failed, or queued again —
    (dicts as JSON text); False, changing nothing, when its `claim` no longer holds the job or
    the job no longer runs (it was cancelled): a runner that lost its job must not end the run
    of the instance that took it over.

    The statement that ends a job drops its items, which only its run needed.
    """
    encoded = maps_as_json(changes)
    rows = store.write(
        lambda tx: tx.run("end_job", id=job_id, owner=owner, claim=claim, changes=encoded),
        use_case="end_job",
    )
    return bool(rows)
