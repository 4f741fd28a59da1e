"""Job routes: checkpoints and mining run in the background; jobs report their progress."""

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from castlegraph.api.http.deps import CallerAgent, StoredUseCases, UseCasesDep
from castlegraph.api.http.openapi import IDEMPOTENT
from castlegraph.api.http.schemas.errors import BY_ID, TOKEN, WRITE, errors
from castlegraph.api.models.jobs import (
    CheckpointCreate,
    JobEnvelopeOut,
    JobListOut,
    MineCreate,
)

router = APIRouter(tags=["jobs"])


def _accepted(job: JobEnvelopeOut) -> JSONResponse:
    return JSONResponse(job.model_dump(mode="json"), status_code=202)


@router.post(
    "/api/checkpoints",
    status_code=202,
    response_model=JobEnvelopeOut,
    responses=errors(TOKEN, WRITE, 429),
    openapi_extra=IDEMPOTENT,
)
def post_checkpoint(
    body: CheckpointCreate, usecases: UseCasesDep, caller: CallerAgent
) -> JSONResponse:
    """Store items in a room in the background: `202` with the job to poll; exact copies are
    counted, not stored. At most `api.max_batch` x 10 items.

    The job writes as the caller's agent: its items are compared only with drawers that agent
    may see, so its counts say nothing of another agent's diary, and an item may name no agent
    but that one.
    """
    return _accepted(usecases.jobs.checkpoint(body, caller))


@router.post(
    "/api/mine",
    status_code=202,
    response_model=JobEnvelopeOut,
    responses=errors(TOKEN, WRITE, 429),
    openapi_extra=IDEMPOTENT,
)
def post_mine(body: MineCreate, usecases: UseCasesDep, caller: CallerAgent) -> JSONResponse:
    """Mine a file or directory on the server, inside `api.mine_roots` only:
    every text chunk becomes a drawer. Agent tokens cannot mine."""
    return _accepted(usecases.jobs.mine(body, caller))


@router.get("/api/jobs/{job_id}", response_model=JobEnvelopeOut, responses=errors(TOKEN, BY_ID))
def get_job(job_id: str, usecases: StoredUseCases, caller: CallerAgent) -> JobEnvelopeOut:
    """An agent's token sees only the jobs it queued; another's is `404`, as an unknown id."""
    return usecases.jobs.get(job_id, caller)


@router.post(
    "/api/jobs/{job_id}/cancel",
    response_model=JobEnvelopeOut,
    responses={
        **errors(TOKEN, BY_ID, 409),  # 409: an `Idempotency-Key` reused
        202: {"model": JobEnvelopeOut, "description": "Cancelled; its runner stops."},
    },
    openapi_extra=IDEMPOTENT,
)
def cancel_job(job_id: str, usecases: StoredUseCases, caller: CallerAgent) -> JSONResponse:
    """Cancel a queued or running job: `202` with the job, now `cancelled`; its runner stops
    before its next item and what it stored stays. Cancelling a finished job (cancelled
    included) changes nothing and answers `200` with it, so a retried cancel is harmless.
    An agent's token cancels only its own jobs (another's is `404`, as an unknown id)."""
    cancelled = usecases.jobs.cancel(job_id, caller)
    return JSONResponse(cancelled.body, status_code=202 if cancelled.changed else 200)


@router.get("/api/jobs", response_model=JobListOut, responses=errors(TOKEN, 422))
def list_jobs(
    usecases: StoredUseCases,
    caller: CallerAgent,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> JobListOut:
    """The most recent jobs first; an agent's token lists only its own."""
    return usecases.jobs.recent(limit, caller)
