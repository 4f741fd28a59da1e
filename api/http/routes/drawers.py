"""Drawer routes (design §4.4, §11): write, diary, supersede, read, list, delete, duplicates.

Each calls `api.usecases.drawers` with the caller's agent; a write answers 201 when it stored
a drawer, 200 for an exact copy or the same named drawer.
"""

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse

from castlegraph.api.http.deps import CallerAgent, StoredUseCases, UseCasesDep
from castlegraph.api.http.openapi import IDEMPOTENT
from castlegraph.api.http.schemas.errors import BY_ID, TOKEN, WRITE, errors
from castlegraph.api.models.common import Label
from castlegraph.api.models.drawers import (
    DiaryCreate,
    DrawerCreate,
    DrawerDuplicatesOut,
    DrawerOut,
    DrawerPage,
    DrawerSearchOut,
    DrawerUpdate,
    DrawerWriteOut,
)
from castlegraph.api.usecases.answers import Changed

router = APIRouter(tags=["drawers"])


def _written(written: Changed) -> JSONResponse:
    return JSONResponse(written.body, status_code=201 if written.changed else 200)


WRITTEN: dict[int | str, dict[str, Any]] = {
    200: {"model": DrawerWriteOut, "description": "an exact copy: the drawer already stored"},
    201: {"model": DrawerWriteOut, "description": "stored"},
}


@router.post(
    "/api/wings/{wing}/rooms/{room}/drawers",
    response_model=DrawerWriteOut,
    responses={
        **errors(TOKEN, WRITE, 404),  # 404: the drawer to supersede
        200: {"model": DrawerWriteOut, "description": "an exact copy or the same named drawer"},
        201: {"model": DrawerWriteOut, "description": "stored"},
    },
    openapi_extra=IDEMPOTENT,
)
def write_drawer(
    wing: str, room: str, body: DrawerCreate, usecases: UseCasesDep, caller: CallerAgent
) -> JSONResponse:
    """Store a memory in a room: `201` with the new drawer and the drawers it resembles, `200`
    when an exact copy (or the same named drawer) is already stored. The answer's drawer id is
    what mentions name.

    An agent's token names only its own agent, on a drawer of any kind: one naming another is
    refused, and a `diary` drawer naming none is its. A diary entry, here as on `/api/diary`,
    is compared only with its agent's own diary entries."""
    return _written(usecases.drawers.write(wing, room, body, caller))


@router.post(
    "/api/diary",
    response_model=DrawerWriteOut,
    responses={**errors(TOKEN, WRITE), **WRITTEN},
    openapi_extra=IDEMPOTENT,
)
def write_diary(body: DiaryCreate, usecases: UseCasesDep, caller: CallerAgent) -> JSONResponse:
    """A diary entry is compared only with the same agent's entries of the wing's diary room.

    When the caller's token names an agent, that is the only agent it may write as.
    """
    return _written(usecases.drawers.write_diary(body, caller))


@router.put(
    "/api/drawers/{drawer_id}",
    response_model=DrawerWriteOut,
    responses={**errors(TOKEN, WRITE, BY_ID), **WRITTEN},
    openapi_extra=IDEMPOTENT,
)
def supersede_drawer(
    drawer_id: str, body: DrawerUpdate, usecases: UseCasesDep, caller: CallerAgent
) -> JSONResponse:
    return _written(usecases.drawers.supersede(drawer_id, body, caller))


@router.get("/api/drawers/{drawer_id}", response_model=DrawerOut, responses=errors(TOKEN, BY_ID))
def get_drawer(drawer_id: str, usecases: StoredUseCases, caller: CallerAgent) -> DrawerOut:
    return usecases.drawers.get(drawer_id, caller)


@router.delete("/api/drawers/{drawer_id}", status_code=204, responses=errors(TOKEN, BY_ID))
def delete_drawer(drawer_id: str, usecases: UseCasesDep, caller: CallerAgent) -> Response:
    usecases.drawers.delete(drawer_id, caller)
    return Response(status_code=204)


@router.get(
    "/api/drawers/{drawer_id}/duplicates",
    response_model=DrawerDuplicatesOut,
    responses=errors(TOKEN, BY_ID),
)
def drawer_duplicates(
    drawer_id: str, usecases: StoredUseCases, caller: CallerAgent
) -> DrawerDuplicatesOut:
    return usecases.drawers.duplicates(drawer_id, caller)


@router.delete(
    "/api/drawers/{drawer_id}/similar/{other_id}", status_code=204, responses=errors(TOKEN, BY_ID)
)
def delete_similar(
    drawer_id: str, other_id: str, usecases: StoredUseCases, caller: CallerAgent
) -> Response:
    usecases.drawers.delete_similar(drawer_id, other_id, caller)
    return Response(status_code=204)


@router.get(
    "/api/wings/{wing}/rooms/{room}/drawers",
    response_model=DrawerPage,
    responses=errors(TOKEN, 400, 422),
)
def list_room(
    wing: str,
    room: str,
    usecases: StoredUseCases,
    caller: CallerAgent,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    cursor: Annotated[str | None, Query(max_length=1000)] = None,
) -> DrawerPage:
    """Current drawers, oldest first (another agent's diary entries are not shown)."""
    return usecases.drawers.list_room(wing, room, limit, cursor, caller)


@router.get(
    "/api/wings/{wing}/rooms/{room}/search",
    response_model=DrawerSearchOut,
    responses=errors(TOKEN, 400, 422),
)
def search_drawers(
    wing: str,
    room: str,
    q: Annotated[Label, Query(min_length=1, max_length=200, description="Words, any order.")],
    usecases: StoredUseCases,
    caller: CallerAgent,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> DrawerSearchOut:
    """A room's current drawers whose content holds every word of `q` (case ignored, up to 8
    words), oldest first; `more` says that more matched than `limit`. Words, not meaning: for
    drawers alike in meaning, see `GET /api/duplicates`."""
    return usecases.drawers.search(wing, room, q, limit, caller)
