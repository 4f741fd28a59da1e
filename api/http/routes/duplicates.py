"""Duplicate review (design §6): embeddings, clusters of look-alikes, verdicts, hygiene.

Each calls `api.usecases.duplicates` with the caller's agent. The two heavy reads wait for their
slot on the event loop (`heavy_reads.slot()`), then read on the thread pool."""

from typing import Annotated

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from castlegraph.api.http.deps import CallerAgent, StoredUseCases, UseCasesDep
from castlegraph.api.http.openapi import IDEMPOTENT
from castlegraph.api.http.schemas.errors import BY_ID, TOKEN, WRITE, errors
from castlegraph.api.models.duplicates import (
    DEFAULT_THRESHOLD,
    DuplicatesOut,
    EmbeddingOut,
    EmbeddingUpdate,
    HygieneOut,
    VerdictCreate,
    VerdictOut,
)

router = APIRouter(tags=["duplicates"])


@router.put(
    "/api/drawers/{drawer_id}/embedding",
    response_model=EmbeddingOut,
    responses=errors(TOKEN, WRITE, BY_ID),
    openapi_extra=IDEMPOTENT,
)
def put_embedding(
    drawer_id: str, body: EmbeddingUpdate, usecases: UseCasesDep, caller: CallerAgent
) -> EmbeddingOut:
    """Supply a drawer's vector; its length must be the palace's dimension."""
    return usecases.duplicates.set_embedding(drawer_id, body, caller)


@router.get("/api/duplicates", response_model=DuplicatesOut, responses=errors(TOKEN, 400, 422))
async def find_duplicates(
    usecases: StoredUseCases,
    caller: CallerAgent,
    wing: Annotated[str | None, Query(max_length=200)] = None,
    room: Annotated[str | None, Query(max_length=200)] = None,
    threshold: Annotated[float, Query(ge=0.0, le=1.0, allow_inf_nan=False)] = DEFAULT_THRESHOLD,
) -> DuplicatesOut:
    """Clusters of current drawers alike in meaning (cosine ≥ threshold). Read-only; a heavy
    read, so at most `api.heavy_reads` at once (503 `service::busy` past the wait)."""
    duplicates = usecases.duplicates
    async with duplicates.heavy_reads.slot():
        return await run_in_threadpool(duplicates.clusters, wing, room, threshold, caller)


@router.post(
    "/api/duplicates/verdicts",
    response_model=VerdictOut,
    responses=errors(TOKEN, WRITE, 404),
    openapi_extra=IDEMPOTENT,
)
def post_verdict(body: VerdictCreate, usecases: StoredUseCases, caller: CallerAgent) -> VerdictOut:
    """Record how a pair was judged; the pair is then left out of `find_duplicates`. Two
    references to one drawer are 422, a superseded drawer 409 `palace::drawer_superseded`."""
    return usecases.duplicates.judge(body, caller)


@router.get("/api/hygiene", response_model=HygieneOut, responses=errors(TOKEN))
async def get_hygiene(usecases: StoredUseCases, caller: CallerAgent) -> HygieneOut:
    """What waits for review: duplicate pairs, review links, drawers without vectors (the
    drawer counts over what the caller's agent may see). A heavy read, like `find_duplicates`."""
    duplicates = usecases.duplicates
    async with duplicates.heavy_reads.slot():
        return await run_in_threadpool(duplicates.counts, caller)
