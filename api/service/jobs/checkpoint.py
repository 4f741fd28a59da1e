"""The checkpoint job: store a list of items in a room, counting exact copies (design §4.4).

Items are written in batches (`graph.drawer_batch.write_drawers`: one candidate read and one
write statement per batch, with the verdicts and links single writes would give, an item
compared with the items before it too). Item `i` is written with the drawer id derived from
(job id, i): a batch is read for those ids first, and an item whose drawer exists was stored
before a crash, so nothing is stored or linked twice and the counts come out as in an
uninterrupted run.

The items are read once, from the job as claimed. Progress is saved after each batch: the
position and two counts; the list of failed items is written only when it grows (design §11).
"""

from typing import Any

from api.service.jobs.batches import batches
from api.service.jobs.context import JobContext
from graph import drawer_batch, drawers
from graph.errors import CastlegraphError, GraphError
from graph.jobs import item_id


def _target(params: dict[str, Any], item: dict[str, Any]) -> tuple[str, str]:
    destination = item.get("destination") or {}
    return destination.get("wing", params["wing"]), destination.get("room", params["room"])


def _new(ctx: JobContext, index: int) -> drawers.NewDrawer:
    params = ctx.job.params
    item = params["items"][index]
    wing, room = _target(params, item)
    return drawers.NewDrawer(
        wing=wing,
        room=room,
        content=item["content"],
        name=item.get("name"),
        kind="checkpoint",
        agent=item.get("agent"),
        drawer_id=item_id(ctx.job.id, index),
        viewer=params.get("viewer"),
    )


def _write(ctx: JobContext, news: list[drawers.NewDrawer]) -> list[drawer_batch.ItemOutcome]:
    """The batch at once; should it be refused as a whole for a reason of its items (not the
    database's), item by item as before, so one bad item fails alone."""
    try:
        return drawer_batch.write_drawers(ctx.store, news, ctx.policy)
    except CastlegraphError as error:
        if isinstance(error, GraphError):
            raise  # the database failed, not the items: stop and resume later
    outcomes: list[drawer_batch.ItemOutcome] = []
    for new in news:
        try:
            outcomes.append(drawers.write_drawer(ctx.store, new, ctx.policy))
        except CastlegraphError as error:
            if isinstance(error, GraphError):
                raise
            outcomes.append(error)
    return outcomes


def run_checkpoint(ctx: JobContext) -> dict[str, Any]:
    items: list[dict[str, Any]] = ctx.job.params["items"]
    state = ctx.job.state or {"next": 0, "stored": 0, "duplicates": 0}
    failed: list[dict[str, Any]] = state.pop("failed", None) or list(ctx.job.failures)
    sizes = [len(item["content"].encode("utf-8")) for item in items]
    for batch in batches(sizes, state["next"]):
        news = [_new(ctx, index) for index in batch]
        stored_before = drawer_batch.drawers_by_ids(ctx.store, [n.drawer_id or "" for n in news])
        state["stored"] += len(stored_before)
        todo = [
            (i, n) for i, n in zip(batch, news, strict=True) if n.drawer_id not in stored_before
        ]
        grew = False
        outcomes = _write(ctx, [n for _, n in todo]) if todo else []
        for (index, _), outcome in zip(todo, outcomes, strict=True):
            if isinstance(outcome, CastlegraphError):
                failed.append({"index": index, "code": outcome.code, "message": outcome.message})
                grew = True
            else:
                state["stored" if outcome.created else "duplicates"] += 1
                if outcome.created:
                    ctx.written(outcome.drawer.id)
        state["next"] = batch.stop
        ctx.checkpoint(state, done=batch.stop, **({"failures": failed} if grew else {}))
    return {
        "items": len(items),
        "stored": state["stored"],
        "duplicates": state["duplicates"],
        "failed": failed,
    }
