"""Job writes and reads the tests set up or wait with, which no part of the service makes: the
service's own job writes are fenced by the runner's claim (`graph.jobs`)."""

from typing import Any

from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.errors import JobNotFound
from castlegraph.graph.jobs import Job, create_job, maps_as_json

FAR_FUTURE_MS = 4_102_444_800_000
"""A lease that never runs out while a test runs (2100-01-01)."""
SHORT_LEASE = {"CASTLEGRAPH_JOB_LEASE_SECONDS": "6"}
"""For a service whose job another instance takes over after a kill (on Neo4j): the takeover
waits for the lease to run out and the next scan, a third of a lease later; 8 s at most with
this lease, 40 with the default."""


def update_job(store: GraphStore, job_id: str, **changes: Any) -> Job:
    """Set fields whoever holds the job (a lease run out, a job another instance owns)."""
    encoded = maps_as_json(changes)
    rows = store.write(
        lambda tx: tx.run("update_job", id=job_id, changes=encoded), use_case="update_job"
    )
    if not rows:
        raise JobNotFound(job_id)
    return Job.from_props(rows[0]["job"])


def unfinished_jobs(store: GraphStore) -> list[Job]:
    rows = store.read(lambda tx: tx.run("unfinished_jobs"), use_case="unfinished_jobs")
    return [Job.from_props(row["job"]) for row in rows]


def held_elsewhere(
    store: GraphStore, kind: str, params: dict[str, Any], *, agent: str | None = None
) -> Job:
    """A queued job that the app's runner leaves alone: another instance holds its lease.

    It is recorded queued, then marked held; the runner's poll can fall between the two and
    claim it first (seen under load), so such a job is ended, out of the next wipe's way, and
    another one is made."""
    for _ in range(10):
        job = create_job(store, kind, params, None, agent=agent)
        held = update_job(store, job.id, owner="elsewhere", lease_expires=FAR_FUTURE_MS)
        if held.status == "queued":
            return held
        update_job(store, job.id, status="failed", owner=None, lease_expires=None)
    raise AssertionError(f"the runner claimed ten {kind} jobs before they could be held")
