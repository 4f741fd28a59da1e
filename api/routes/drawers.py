"""Drawer routes (DESIGN §4.4, §11): write, diary, supersede, read, list, delete, duplicates."""

from typing import Annotated

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse

from api.deps import RuntimeDep, StoreDep
from api.limits import check_content, check_path_segment
from api.runtime import Runtime
from api.schemas import (
    DiaryCreate,
    DrawerCreate,
    DrawerOut,
    DrawerReplace,
    DuplicatesResponse,
    RoomPage,
    SimilarOut,
    WriteResponse,
)
from graph import drawers
from graph.records import WriteOutcome

router = APIRouter(tags=["drawers"])
DIARY_ROOM = "diary"


def _written(runtime: Runtime, outcome: WriteOutcome) -> JSONResponse:
    if outcome.created:
        runtime.written(outcome.drawer.id)
    body = WriteResponse.of(outcome).model_dump(mode="json", exclude_none=False)
    if outcome.superseded is None:
        body.pop("superseded")
    return JSONResponse(body, status_code=201 if outcome.created else 200)


@router.post(
    "/api/wings/{wing}/rooms/{room}/drawers",
    response_model=WriteResponse,
    responses={
        200: {"description": "an exact copy (unnamed) or the same named drawer"},
        201: {"description": "stored"},
        409: {"description": "name held by other content"},
    },
)
def write_drawer(wing: str, room: str, body: DrawerCreate, runtime: RuntimeDep) -> JSONResponse:
    new = drawers.NewDrawer(
        wing=check_path_segment("wing", wing),
        room=check_path_segment("room", room),
        content=check_content(body.content),
        name=body.name,
        kind=body.kind,
        agent=body.agent,
        source_uri=body.source_uri,
    )
    outcome = drawers.write_drawer(runtime.store, new, runtime.policy, supersede=body.supersede)
    return _written(runtime, outcome)


@router.post("/api/diary", response_model=WriteResponse)
def write_diary(body: DiaryCreate, runtime: RuntimeDep) -> JSONResponse:
    """A diary entry is compared only with the same agent's entries of the wing's diary room."""
    new = drawers.NewDrawer(
        wing=check_path_segment("wing", body.wing),
        room=DIARY_ROOM,
        content=check_content(body.content),
        kind="diary",
        agent=check_path_segment("agent", body.agent),
        compare_same_agent_only=True,
    )
    return _written(runtime, drawers.write_drawer(runtime.store, new, runtime.policy))


@router.put("/api/drawers/{drawer_id}", response_model=WriteResponse)
def supersede_drawer(drawer_id: str, body: DrawerReplace, runtime: RuntimeDep) -> JSONResponse:
    outcome = drawers.supersede_drawer(
        runtime.store, drawer_id, check_content(body.content), runtime.policy
    )
    return _written(runtime, outcome)


@router.get("/api/drawers/{drawer_id}", response_model=DrawerOut)
def get_drawer(drawer_id: str, store: StoreDep) -> DrawerOut:
    return DrawerOut.of(drawers.get_drawer(store, drawer_id))


@router.delete("/api/drawers/{drawer_id}", status_code=204)
def delete_drawer(drawer_id: str, store: StoreDep) -> Response:
    drawers.delete_drawer(store, drawer_id)
    return Response(status_code=204)


@router.get("/api/drawers/{drawer_id}/duplicates", response_model=DuplicatesResponse)
def drawer_duplicates(drawer_id: str, store: StoreDep) -> DuplicatesResponse:
    entries = drawers.similar_drawers(store, drawer_id)
    return DuplicatesResponse(drawer=drawer_id, similar=[SimilarOut.of(e) for e in entries])


@router.delete("/api/drawers/{drawer_id}/similar/{other_id}", status_code=204)
def delete_similar(drawer_id: str, other_id: str, store: StoreDep) -> Response:
    drawers.delete_similar(store, drawer_id, other_id)
    return Response(status_code=204)


@router.get("/api/wings/{wing}/rooms/{room}/drawers", response_model=RoomPage)
def list_room(
    wing: str,
    room: str,
    store: StoreDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    cursor: Annotated[str | None, Query(max_length=1000)] = None,
) -> RoomPage:
    page, next_cursor = drawers.list_room(
        store, check_path_segment("wing", wing), check_path_segment("room", room), limit, cursor
    )
    return RoomPage(drawers=[DrawerOut.of(d) for d in page], next_cursor=next_cursor)
