"""Job writes and reads the tests set up or wait with, which no part of the service makes: the
service's own job writes are fenced by the runner's claim (`graph.jobs`)."""

from typing import Any

from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.errors import JobNotFound
from castlegraph.graph.jobs import Job, maps_as_json


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
