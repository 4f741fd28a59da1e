"""Job routes: checkpoints and mining run in the background; jobs report their progress."""

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from api.errors import Forbidden, PayloadTooLarge
from api.http.deps import IDEMPOTENT, CallerAgent, RuntimeDep, StoreDep
from api.http.limits import check_content, check_path_segment
from api.http.mine_paths import allowed_path
from api.http.schemas.errors import BY_ID, TOKEN, WRITE, errors
from api.http.schemas.jobs import CheckpointCreate, JobEnvelopeOut, JobListOut, MineCreate
from graph import jobs

router = APIRouter(tags=["jobs"])
CHECKPOINT_BATCHES = 10
"""A checkpoint may hold this many batches' worth of items (`api.max_batch` each)."""


def _accepted(job: jobs.Job) -> JSONResponse:
    return JSONResponse(JobEnvelopeOut.of(job).model_dump(mode="json"), status_code=202)


@router.post(
    "/api/checkpoints",
    status_code=202,
    response_model=JobEnvelopeOut,
    responses=errors(TOKEN, WRITE),
    dependencies=[IDEMPOTENT],
)
def post_checkpoint(
    body: CheckpointCreate, runtime: RuntimeDep, caller: CallerAgent
) -> JSONResponse:
    """Store items in a room in the background; exact copies are counted, not stored.

    The job writes as the caller's agent (param `viewer`, design §8.1): its items are compared
    only with drawers that agent may see, so its counts say nothing of another agent's diary.

    At most `api.max_batch` x 10 items (design §11): the job's parameters are one node property
    that a runner reads whole, so their size is bounded like any batch.
    """
    limit = runtime.settings.api.max_batch * CHECKPOINT_BATCHES
    if len(body.items) > limit:
        raise PayloadTooLarge(
            f"a checkpoint holds at most {limit} items", {"items": len(body.items), "max": limit}
        )
    check_path_segment("wing", body.wing)
    check_path_segment("room", body.room)
    for item in body.items:
        check_content(item.content)
        if item.destination is not None:
            for kind, value in (("wing", item.destination.wing), ("room", item.destination.room)):
                if value is not None:
                    check_path_segment(kind, value)
    params = body.model_dump(exclude_none=True)
    if caller is not None:
        params["viewer"] = caller
    job = jobs.create_job(runtime.store, "checkpoint", params, total=len(body.items))
    runtime.submit(job)
    return _accepted(job)


@router.post(
    "/api/mine",
    status_code=202,
    response_model=JobEnvelopeOut,
    responses=errors(TOKEN, WRITE),
    dependencies=[IDEMPOTENT],
)
def post_mine(body: MineCreate, runtime: RuntimeDep, caller: CallerAgent) -> JSONResponse:
    """Mine a file or directory on the server, inside `api.mine_roots` only (design §8.1):
    every text chunk becomes a drawer. Agent tokens cannot mine."""
    if caller is not None:
        raise Forbidden("an agent token cannot start mining", {"agent": caller})
    return start_mine(body, runtime, allowed_path(body.path, runtime.settings.api.mine_roots))


def start_mine(body: MineCreate, runtime: RuntimeDep, root: Path) -> JSONResponse:
    """Queue the mining of `root`, a path already checked by whoever calls this."""
    params: dict[str, str | int] = {
        "path": str(root),
        "wing": check_path_segment("wing", body.wing),
        "room": check_path_segment("room", body.room or root.name or "root"),
    }
    if body.chunk_chars is not None:
        params["chunk_chars"] = body.chunk_chars
    job = jobs.create_job(runtime.store, "mine", params, total=None)
    runtime.submit(job)
    return _accepted(job)


@router.get("/api/jobs/{job_id}", response_model=JobEnvelopeOut, responses=errors(TOKEN, BY_ID))
def get_job(job_id: str, store: StoreDep) -> JobEnvelopeOut:
    return JobEnvelopeOut.of(jobs.get_job(store, job_id))


@router.post(
    "/api/jobs/{job_id}/cancel",
    response_model=JobEnvelopeOut,
    responses={
        **errors(TOKEN, BY_ID, 409),  # 409: an `Idempotency-Key` reused
        202: {"model": JobEnvelopeOut, "description": "Cancelled; its runner stops."},
    },
    dependencies=[IDEMPOTENT],
)
def cancel_job(job_id: str, store: StoreDep) -> JSONResponse:
    """Cancel a queued or running job: `202` with the job, now `cancelled`; its runner stops
    before its next item and what it stored stays. Cancelling a finished job (cancelled
    included) changes nothing and answers `200` with it, so a retried cancel is harmless."""
    job, cancelled = jobs.cancel_job(store, job_id)
    status = 202 if cancelled else 200
    return JSONResponse(JobEnvelopeOut.of(job).model_dump(mode="json"), status_code=status)


@router.get("/api/jobs", response_model=JobListOut, responses=errors(TOKEN, 422))
def list_jobs(store: StoreDep, limit: Annotated[int, Query(ge=1, le=500)] = 50) -> JobListOut:
    """The most recent jobs first."""
    return JobListOut.of(jobs.recent_jobs(store, limit))
