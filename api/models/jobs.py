"""Request and response models of the job routes (design §4.4, §11)."""

from typing import Annotated, Any

from pydantic import BaseModel, Field, StringConstraints

from castlegraph.api.models.common import Label, Strict, examples
from castlegraph.graph.jobs import Job, JobStatus

PathSegment = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class DestinationIn(Strict):
    wing: PathSegment | None = None
    room: PathSegment | None = None


class CheckpointItemIn(Strict):
    content: str
    name: Label | None = None
    agent: Label | None = None
    destination: DestinationIn | None = Field(
        default=None, description="Store this item in another wing or room than the job's."
    )


class CheckpointCreate(Strict):
    model_config = examples(
        {
            "wing": "work",
            "room": "standups",
            "items": [
                {"content": "We move the ingest job to the new queue.", "name": "2026-12-05"},
                {
                    "content": "Decision: the queue keeps jobs for 7 days.",
                    "destination": {"room": "decisions"},
                },
            ],
        }
    )

    wing: PathSegment
    room: PathSegment
    items: list[CheckpointItemIn]


class MineCreate(Strict):
    path: Annotated[str, StringConstraints(min_length=1, max_length=4096)] = Field(
        description="A file or directory on the server."
    )
    wing: PathSegment
    room: PathSegment | None = Field(default=None, description="Default: the directory's name.")
    chunk_chars: int | None = Field(default=None, ge=100, le=100_000)


class JobOut(BaseModel):
    id: str
    kind: str
    status: JobStatus
    progress: dict[str, int | None]
    params: dict[str, Any]
    result: dict[str, Any] | None
    error: dict[str, Any] | None
    created_at: str
    started_at: str | None
    finished_at: str | None

    @classmethod
    def of(cls, job: Job) -> "JobOut":
        params = dict(job.params)
        if "items" in params:  # the items can be large: their number says enough here
            params["items"] = len(params["items"])
        elif job.item_count is not None:  # read without them (`graph.jobs`)
            params["items"] = job.item_count
        return cls(
            id=job.id,
            kind=job.kind,
            status=job.status,
            progress={"done": job.progress_done, "total": job.progress_total},
            params=params,
            result=job.result,
            error=job.error,
            created_at=job.created_at,
            started_at=job.started_at,
            finished_at=job.finished_at,
        )


class JobEnvelopeOut(BaseModel):
    job: JobOut

    @classmethod
    def of(cls, job: Job) -> "JobEnvelopeOut":
        return cls(job=JobOut.of(job))


class JobListOut(BaseModel):
    jobs: list[JobOut]

    @classmethod
    def of(cls, jobs: list[Job]) -> "JobListOut":
        return cls(jobs=[JobOut.of(job) for job in jobs])
