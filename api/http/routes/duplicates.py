"""Duplicate review (design §6): embeddings, clusters of look-alikes, verdicts, hygiene.

An agent's token never embeds, pairs, judges or counts another agent's diary entries: the
caller's agent is the graph layer's viewer (design §8.1)."""

from typing import Annotated

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from castlegraph.api.http.deps import IDEMPOTENT, CallerAgent, RuntimeDep, StoreDep
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
from castlegraph.api.service.limits import check_path_segment
from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.review import duplicates, embeddings

router = APIRouter(tags=["duplicates"])


@router.put(
    "/api/drawers/{drawer_id}/embedding",
    response_model=EmbeddingOut,
    responses=errors(TOKEN, WRITE, BY_ID),
    dependencies=[IDEMPOTENT],
)
def put_embedding(
    drawer_id: str, body: EmbeddingUpdate, runtime: RuntimeDep, caller: CallerAgent
) -> EmbeddingOut:
    """Supply a drawer's vector; its length must be the palace's dimension."""
    configured = runtime.settings.embeddings.dimension
    dimension = embeddings.set_embedding(
        runtime.store, drawer_id, body.vector, configured, viewer=caller
    )
    return EmbeddingOut(drawer=drawer_id, dimension=dimension)


def _scope(wing: str | None, room: str | None, caller: str | None) -> duplicates.Scope:
    return duplicates.Scope(
        wing=check_path_segment("wing", wing) if wing is not None else None,
        room=check_path_segment("room", room) if room is not None else None,
        viewer=caller,
    )


@router.get("/api/duplicates", response_model=DuplicatesOut, responses=errors(TOKEN, 400, 422))
async def find_duplicates(
    runtime: RuntimeDep,
    store: StoreDep,
    caller: CallerAgent,
    wing: Annotated[str | None, Query(max_length=200)] = None,
    room: Annotated[str | None, Query(max_length=200)] = None,
    threshold: Annotated[float, Query(ge=0.0, le=1.0, allow_inf_nan=False)] = DEFAULT_THRESHOLD,
) -> DuplicatesOut:
    """Clusters of current drawers alike in meaning (cosine ≥ threshold). Read-only; a heavy
    read, so at most `api.heavy_reads` at once (503 `service::busy` past the wait)."""
    async with runtime.heavy_reads.slot():
        return await run_in_threadpool(duplicate_clusters, store, caller, wing, room, threshold)


def duplicate_clusters(
    store: GraphStore, caller: str | None, wing: str | None, room: str | None, threshold: float
) -> DuplicatesOut:
    """The answer of `find_duplicates`, for the in-process client too."""
    clusters = duplicates.duplicate_clusters(store, _scope(wing, room, caller), threshold)
    return DuplicatesOut.of(threshold, clusters, duplicates.PAIRS_LIMIT)


@router.post(
    "/api/duplicates/verdicts",
    response_model=VerdictOut,
    responses=errors(TOKEN, WRITE, 404),
    dependencies=[IDEMPOTENT],
)
def post_verdict(body: VerdictCreate, store: StoreDep, caller: CallerAgent) -> VerdictOut:
    """Record how a pair was judged; the pair is then left out of `find_duplicates`. Two
    references to one drawer are 422, a superseded drawer 409 `palace::drawer_superseded`."""
    scope = _scope(body.wing, body.room, caller)
    low, high = duplicates.judge_pair(store, body.a, body.b, body.status, scope)
    return VerdictOut(a=low, b=high, status=body.status)


@router.get("/api/hygiene", response_model=HygieneOut, responses=errors(TOKEN))
async def get_hygiene(runtime: RuntimeDep, store: StoreDep, caller: CallerAgent) -> HygieneOut:
    """What waits for review: duplicate pairs, review links, drawers without vectors (the
    drawer counts over what the caller's agent may see). A heavy read, like `find_duplicates`."""
    async with runtime.heavy_reads.slot():
        return await run_in_threadpool(hygiene_counts, store, caller)


def hygiene_counts(store: GraphStore, caller: str | None) -> HygieneOut:
    """The answer of `get_hygiene`, for the in-process client too."""
    return HygieneOut.of(duplicates.hygiene(store, DEFAULT_THRESHOLD, viewer=caller))
