"""Durable jobs, recorded in the graph as `(:Job)` so that they survive a crash (design §4.4).

A job keeps its parameters, status, progress, result and error, plus a `state` checkpoint its
runner writes as it goes. Maps are stored as JSON strings: neither backend stores maps.

A job runs on one instance at a time (design §2.2): the runner that claims it becomes its
`owner` and holds a lease (`lease_until`) that it renews while it runs. A lease that nobody
renewed — its owner died — lets another runner claim the job and resume it from its state.
"""

import json
import uuid
from dataclasses import dataclass
from typing import Any, Literal

from graph.clock import utc_now
from graph.errors import JobNotFound
from graph.store import GraphStore, Tx

JobStatus = Literal["queued", "running", "succeeded", "failed"]
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
    lease_until: str | None = None
    attempts: int = 0

    @classmethod
    def from_props(cls, props: dict[str, Any]) -> "Job":
        def load(name: str) -> Any:
            raw = props.get(name)
            return json.loads(raw) if raw else None

        return cls(
            id=props["id"],
            kind=props["kind"],
            status=props["status"],
            params=load("params") or {},
            progress_done=int(props.get("progress_done") or 0),
            progress_total=props.get("progress_total"),
            result=load("result"),
            error=load("error"),
            state=load("state") or {},
            created_at=props["created_at"],
            started_at=props.get("started_at"),
            finished_at=props.get("finished_at"),
            owner=props.get("owner"),
            lease_until=props.get("lease_until"),
            attempts=int(props.get("attempts") or 0),
        )


def item_id(job_id: str, index: int | str) -> str:
    """The id of the drawer a job stores for item `index`: a resumed job finds it again."""
    return str(uuid.uuid5(JOB_NAMESPACE, f"{job_id}:{index}"))


def create_job(store: GraphStore, kind: str, params: dict[str, Any], total: int | None) -> Job:
    props: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "kind": kind,
        "status": "queued",
        "params": json.dumps(params),
        "progress_done": 0,
        "created_at": utc_now(),
    }
    if total is not None:
        props["progress_total"] = total
    rows = store.write(lambda tx: tx.run("create_job", props=props), use_case="create_job")
    return Job.from_props(rows[0]["job"])


def _get(tx: Tx, job_id: str) -> Job:
    rows = tx.run("job_by_id", id=job_id)
    if not rows:
        raise JobNotFound(job_id)
    return Job.from_props(rows[0]["job"])


def get_job(store: GraphStore, job_id: str) -> Job:
    return store.read(lambda tx: _get(tx, job_id), use_case="get_job")


def recent_jobs(store: GraphStore, limit: int) -> list[Job]:
    rows = store.read(lambda tx: tx.run("recent_jobs", limit=limit), use_case="recent_jobs")
    return [Job.from_props(row["job"]) for row in rows]


def unfinished_jobs(store: GraphStore) -> list[Job]:
    rows = store.read(lambda tx: tx.run("unfinished_jobs"), use_case="unfinished_jobs")
    return [Job.from_props(row["job"]) for row in rows]


def update_job(store: GraphStore, job_id: str, **changes: Any) -> Job:
    """Set fields; dicts (`result`, `error`, `state`, `params`) are stored as JSON text."""
    encoded = {
        name: json.dumps(value) if isinstance(value, dict) else value
        for name, value in changes.items()
    }
    rows = store.write(
        lambda tx: tx.run("update_job", id=job_id, changes=encoded), use_case="update_job"
    )
    if not rows:
        raise JobNotFound(job_id)
    return Job.from_props(rows[0]["job"])


JOB_CLAIMS = "job_claims"
"""The lock every claim takes first: claims are rare, and a lease read without it could be
read free by two instances at once (on Neo4j a read takes no lock)."""


def claim_job(store: GraphStore, job_id: str, owner: str, now: str, until: str) -> Job | None:
    """Make `owner` the job's runner until `until`; None when it is finished or another
    owner's lease still runs."""

    def claim(tx: Tx) -> Job | None:
        tx.lock(JOB_CLAIMS)
        rows = tx.run("claim_job", id=job_id, owner=owner, now=now, until=until)
        return Job.from_props(rows[0]["job"]) if rows else None

    return store.write(claim, use_case="claim_job")


def renew_job_lease(store: GraphStore, job_id: str, owner: str, until: str) -> bool:
    """Extend a running job's lease; False when `owner` no longer holds the job."""
    rows = store.write(
        lambda tx: tx.run("renew_job_lease", id=job_id, owner=owner, until=until),
        use_case="renew_job_lease",
    )
    return bool(rows)
