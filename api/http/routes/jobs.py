"""Job routes: checkpoints and mining run in the background; jobs report their progress."""

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from castlegraph.api.errors import Forbidden, PayloadTooLarge
from castlegraph.api.http.deps import IDEMPOTENT, CallerAgent, RuntimeDep, StoreDep
from castlegraph.api.http.schemas.errors import BY_ID, TOKEN, WRITE, errors
from castlegraph.api.models.jobs import (
    CheckpointCreate,
    JobEnvelopeOut,
    JobListOut,
    MineCreate,
)
from castlegraph.api.service.agents import named_agent
from castlegraph.api.service.limits import check_content, check_path_segment
from castlegraph.api.service.mine_paths import allowed_path
from castlegraph.api.service.runtime import Runtime
from castlegraph.graph import jobs

router = APIRouter(tags=["jobs"])
CHECKPOINT_BATCHES = 10
"""A checkpoint may hold this many batches' worth of items (`api.max_batch` each)."""


def _accepted(job: jobs.Job) -> JSONResponse:
    return JSONResponse(JobEnvelopeOut.of(job).model_dump(mode="json"), status_code=202)


def _queued(
    runtime: Runtime, kind: str, params: dict[str, Any], total: int | None, caller: str | None
) -> JSONResponse:
    """Record the job as the caller's, within its bound (`api.max_queued_jobs`), and start it."""
    job = jobs.create_job(
        runtime.store,
        kind,
        params,
        total,
        agent=caller,
        max_queued=runtime.settings.api.max_queued_jobs,
    )
    runtime.submit(job)
    return _accepted(job)


@router.post(
    "/api/checkpoints",
    status_code=202,
    response_model=JobEnvelopeOut,
    responses=errors(TOKEN, WRITE, 429),
    dependencies=[IDEMPOTENT],
)
def post_checkpoint(
    body: CheckpointCreate, runtime: RuntimeDep, caller: CallerAgent
) -> JSONResponse:
    """Store items in a room in the background: `202` with the job to poll; exact copies are
    counted, not stored. At most `api.max_batch` x 10 items.

    The job writes as the caller's agent: its items are compared only with drawers that agent
    may see, so its counts say nothing of another agent's diary, and an item may name no agent
    but that one.
    """
    # The bound: the job's parameters are one node property that a runner reads whole, so
    # their size is bounded like any batch (design §8.1 for the agent, §11 for the bound).
    limit = runtime.settings.api.max_batch * CHECKPOINT_BATCHES
    if len(body.items) > limit:
        raise PayloadTooLarge(
            f"a checkpoint holds at most {limit} items", {"items": len(body.items), "max": limit}
        )
    check_path_segment("wing", body.wing)
    check_path_segment("room", body.room)
    for item in body.items:
        check_content(item.content)
        named_agent(item.agent, caller)
        if item.destination is not None:
            for kind, value in (("wing", item.destination.wing), ("room", item.destination.room)):
                if value is not None:
                    check_path_segment(kind, value)
    params = body.model_dump(exclude_none=True)
    if caller is not None:
        params["viewer"] = caller
    return _queued(runtime, "checkpoint", params, len(body.items), caller)


@router.post(
    "/api/mine",
    status_code=202,
    response_model=JobEnvelopeOut,
    responses=errors(TOKEN, WRITE, 429),
    dependencies=[IDEMPOTENT],
)
def post_mine(body: MineCreate, runtime: RuntimeDep, caller: CallerAgent) -> JSONResponse:
    """Mine a file or directory on the server, inside `api.mine_roots` only:
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
    return _queued(runtime, "mine", params, None, None)  # agents cannot mine: an operator's


@router.get("/api/jobs/{job_id}", response_model=JobEnvelopeOut, responses=errors(TOKEN, BY_ID))
def get_job(job_id: str, store: StoreDep, caller: CallerAgent) -> JobEnvelopeOut:
    """An agent's token sees only the jobs it queued; another's is `404`, as an unknown id."""
    return JobEnvelopeOut.of(jobs.get_job(store, job_id, viewer=caller))


@router.post(
    "/api/jobs/{job_id}/cancel",
    response_model=JobEnvelopeOut,
    responses={
        **errors(TOKEN, BY_ID, 409),  # 409: an `Idempotency-Key` reused
        202: {"model": JobEnvelopeOut, "description": "Cancelled; its runner stops."},
    },
    dependencies=[IDEMPOTENT],
)
def cancel_job(job_id: str, store: StoreDep, caller: CallerAgent) -> JSONResponse:
    """Cancel a queued or running job: `202` with the job, now `cancelled`; its runner stops
    before its next item and what it stored stays. Cancelling a finished job (cancelled
    included) changes nothing and answers `200` with it, so a retried cancel is harmless.
    An agent's token cancels only its own jobs (another's is `404`, as an unknown id)."""
    job, cancelled = jobs.cancel_job(store, job_id, viewer=caller)
    status = 202 if cancelled else 200
    return JSONResponse(JobEnvelopeOut.of(job).model_dump(mode="json"), status_code=status)


@router.get("/api/jobs", response_model=JobListOut, responses=errors(TOKEN, 422))
def list_jobs(
    store: StoreDep, caller: CallerAgent, limit: Annotated[int, Query(ge=1, le=500)] = 50
) -> JobListOut:
    """The most recent jobs first; an agent's token lists only its own."""
    return JobListOut.of(jobs.recent_jobs(store, limit, viewer=caller))
