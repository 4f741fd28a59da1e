"""The checkpoint job: store a list of items in a room, counting exact copies (design §4.4).

Item `i` is written with the drawer id derived from (job id, i): when a resumed job finds that
drawer, the item was stored before the crash, so nothing is stored or linked twice and the
counts come out as in an uninterrupted run.

The items are read once, from the job as claimed. A save writes the position and two counts;
the list of failed items is written only when it grows (design §11).
"""

from typing import Any

from api.service.jobs.context import JobContext
from graph import drawers
from graph.errors import CastlegraphError, DrawerNotFound, GraphError
from graph.jobs import item_id


def _stored_before(ctx: JobContext, drawer_id: str) -> bool:
    try:
        drawers.get_drawer(ctx.store, drawer_id)
    except DrawerNotFound:
        return False
    return True


def _target(params: dict[str, Any], item: dict[str, Any]) -> tuple[str, str]:
    destination = item.get("destination") or {}
    return destination.get("wing", params["wing"]), destination.get("room", params["room"])


def run_checkpoint(ctx: JobContext) -> dict[str, Any]:
    params = ctx.job.params
    items: list[dict[str, Any]] = params["items"]
    state = ctx.job.state or {"next": 0, "stored": 0, "duplicates": 0}
    failed: list[dict[str, Any]] = state.pop("failed", None) or list(ctx.job.failures)
    for index in range(state["next"], len(items)):
        item = items[index]
        drawer_id = item_id(ctx.job.id, index)
        if _stored_before(ctx, drawer_id):
            state["stored"] += 1
        else:
            wing, room = _target(params, item)
            new = drawers.NewDrawer(
                wing=wing,
                room=room,
                content=item["content"],
                name=item.get("name"),
                kind="checkpoint",
                agent=item.get("agent"),
                drawer_id=drawer_id,
                viewer=params.get("viewer"),
            )
            try:
                outcome = drawers.write_drawer(ctx.store, new, ctx.policy)
            except CastlegraphError as error:
                if isinstance(error, GraphError):
                    raise  # the database failed, not the item: stop and resume later
                failed.append({"index": index, "code": error.code, "message": error.message})
            else:
                state["stored" if outcome.created else "duplicates"] += 1
                if outcome.created:
                    ctx.written(outcome.drawer.id)
        state["next"] = index + 1
        grew = bool(failed) and failed[-1]["index"] == index
        ctx.checkpoint(state, done=index + 1, **({"failures": failed} if grew else {}))
    return {
        "items": len(items),
        "stored": state["stored"],
        "duplicates": state["duplicates"],
        "failed": failed,
    }
