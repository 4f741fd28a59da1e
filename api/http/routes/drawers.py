"""Drawer routes (design §4.4, §11): write, diary, supersede, read, list, delete, duplicates.

Every route passes the caller's agent to the graph layer as the viewer (design §8.1): another
agent's diary entry is never compared with a write, listed, linked or named, and by id it is
`404 palace::drawer_not_found`, the answer for an id that does not exist.
"""

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse

from castlegraph.api.http.auth import named_agent
from castlegraph.api.http.deps import IDEMPOTENT, CallerAgent, RuntimeDep, StoreDep
from castlegraph.api.http.limits import check_content, check_path_segment
from castlegraph.api.http.schemas.drawers import (
    DiaryCreate,
    DrawerCreate,
    DrawerDuplicatesOut,
    DrawerOut,
    DrawerPage,
    DrawerUpdate,
    DrawerWriteOut,
)
from castlegraph.api.http.schemas.errors import BY_ID, TOKEN, WRITE, errors
from castlegraph.api.service.runtime import Runtime
from castlegraph.graph.drawers import palace
from castlegraph.graph.drawers.drawer_request import NewDrawer
from castlegraph.graph.drawers.visibility import DIARY_KIND
from castlegraph.graph.records import WriteOutcome

router = APIRouter(tags=["drawers"])
DIARY_ROOM = "diary"


def _written(runtime: Runtime, outcome: WriteOutcome) -> JSONResponse:
    if outcome.created:
        runtime.written(outcome.drawer.id)
    body = DrawerWriteOut.of(outcome).model_dump(mode="json", exclude_none=False)
    if outcome.superseded is None:
        body.pop("superseded")
    return JSONResponse(body, status_code=201 if outcome.created else 200)


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
    dependencies=[IDEMPOTENT],
)
def write_drawer(
    wing: str, room: str, body: DrawerCreate, runtime: RuntimeDep, caller: CallerAgent
) -> JSONResponse:
    """An agent's token names only its own agent, on a drawer of any kind (design §8.1): one
    naming another is refused, and a `diary` drawer naming none is its. A diary entry, here as
    on `/api/diary`, is compared only with its agent's own diary entries."""
    agent = named_agent(body.agent, caller)
    if caller is not None and body.kind == DIARY_KIND:
        agent = caller
    new = NewDrawer(
        wing=check_path_segment("wing", wing),
        room=check_path_segment("room", room),
        content=check_content(body.content),
        name=body.name,
        kind=body.kind,
        agent=agent,
        source_uri=body.source_uri,
        compare_same_agent_only=body.kind == DIARY_KIND and agent is not None,
        viewer=caller,
    )
    outcome = palace.write_drawer(
        runtime.store, new, runtime.policy, supersede=body.supersede, memory=runtime.drawer_index
    )
    return _written(runtime, outcome)


@router.post(
    "/api/diary",
    response_model=DrawerWriteOut,
    responses={**errors(TOKEN, WRITE), **WRITTEN},
    dependencies=[IDEMPOTENT],
)
def write_diary(body: DiaryCreate, runtime: RuntimeDep, caller: CallerAgent) -> JSONResponse:
    """A diary entry is compared only with the same agent's entries of the wing's diary room.

    When the caller's token names an agent, that is the only agent it may write as.
    """
    named_agent(body.agent, caller)
    new = NewDrawer(
        wing=check_path_segment("wing", body.wing),
        room=DIARY_ROOM,
        content=check_content(body.content),
        kind="diary",
        agent=check_path_segment("agent", body.agent),
        compare_same_agent_only=True,
        viewer=caller,
    )
    outcome = palace.write_drawer(runtime.store, new, runtime.policy, memory=runtime.drawer_index)
    return _written(runtime, outcome)


@router.put(
    "/api/drawers/{drawer_id}",
    response_model=DrawerWriteOut,
    responses={**errors(TOKEN, WRITE, BY_ID), **WRITTEN},
    dependencies=[IDEMPOTENT],
)
def supersede_drawer(
    drawer_id: str, body: DrawerUpdate, runtime: RuntimeDep, caller: CallerAgent
) -> JSONResponse:
    outcome = palace.supersede_drawer(
        runtime.store,
        drawer_id,
        check_content(body.content),
        runtime.policy,
        viewer=caller,
        memory=runtime.drawer_index,
    )
    return _written(runtime, outcome)


@router.get("/api/drawers/{drawer_id}", response_model=DrawerOut, responses=errors(TOKEN, BY_ID))
def get_drawer(drawer_id: str, store: StoreDep, caller: CallerAgent) -> DrawerOut:
    return DrawerOut.of(palace.get_drawer(store, drawer_id, viewer=caller))


@router.delete("/api/drawers/{drawer_id}", status_code=204, responses=errors(TOKEN, BY_ID))
def delete_drawer(drawer_id: str, runtime: RuntimeDep, caller: CallerAgent) -> Response:
    palace.delete_drawer(runtime.store, drawer_id, viewer=caller, memory=runtime.drawer_index)
    return Response(status_code=204)


@router.get(
    "/api/drawers/{drawer_id}/duplicates",
    response_model=DrawerDuplicatesOut,
    responses=errors(TOKEN, BY_ID),
)
def drawer_duplicates(drawer_id: str, store: StoreDep, caller: CallerAgent) -> DrawerDuplicatesOut:
    similar = palace.similar_drawers(store, drawer_id, viewer=caller)
    return DrawerDuplicatesOut.of(drawer_id, similar)


@router.delete(
    "/api/drawers/{drawer_id}/similar/{other_id}", status_code=204, responses=errors(TOKEN, BY_ID)
)
def delete_similar(drawer_id: str, other_id: str, store: StoreDep, caller: CallerAgent) -> Response:
    palace.delete_similar(store, drawer_id, other_id, viewer=caller)
    return Response(status_code=204)


@router.get(
    "/api/wings/{wing}/rooms/{room}/drawers",
    response_model=DrawerPage,
    responses=errors(TOKEN, 400, 422),
)
def list_room(
    wing: str,
    room: str,
    store: StoreDep,
    caller: CallerAgent,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    cursor: Annotated[str | None, Query(max_length=1000)] = None,
) -> DrawerPage:
    """Current drawers, oldest first (another agent's diary entries are not shown)."""
    page, next_cursor = palace.list_room(
        store,
        check_path_segment("wing", wing),
        check_path_segment("room", room),
        limit,
        cursor,
        viewer=caller,
    )
    return DrawerPage.of(page, next_cursor)
