"""The checkpoint job: store a list of items in a room, counting exact copies (design §4.4).

Items are written in batches (`graph.drawers.drawer_batch.write_drawers`), their texts prepared
one batch ahead (`api.service.jobs.ahead`). Item `i` is the drawer `item_id(job, i)`, so a run
resumed after a crash stores and links nothing twice and counts as an uninterrupted run would.
Progress is saved by each batch's own statement, the failed list only when it grows (design §11).
"""

import contextlib
import itertools
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from castlegraph.api.service.jobs.batches import batches
from castlegraph.api.service.jobs.context import JobContext
from castlegraph.graph.drawers import drawer_batch, palace
from castlegraph.graph.drawers.drawer_request import NewDrawer
from castlegraph.graph.errors import GraphError, JobNotFound
from castlegraph.graph.jobs import ProgressSave, Saved, item_id
from castlegraph.resolver.drawers import PreparedText
from castlegraph.resolver.errors import CastlegraphError


def _target(params: dict[str, Any], item: dict[str, Any]) -> tuple[str, str]:
    destination = item.get("destination") or {}
    return destination.get("wing", params["wing"]), destination.get("room", params["room"])


def _new(ctx: JobContext, index: int) -> NewDrawer:
    params = ctx.job.params
    item = params["items"][index]
    wing, room = _target(params, item)
    return NewDrawer(
        wing=wing,
        room=room,
        content=item["content"],
        name=item.get("name"),
        kind="checkpoint",
        agent=item.get("agent"),
        drawer_id=item_id(ctx.job.id, index),
        viewer=params.get("viewer"),
    )


def _write(
    ctx: JobContext,
    news: list[NewDrawer],
    ready: list[PreparedText] | None,
    progress: drawer_batch.ProgressOf,
) -> tuple[list[drawer_batch.ItemOutcome], Saved | None]:
    """The batch at once (its texts `ready` if prepared ahead), its `progress` saved by its own
    statement (`drawer_batch.write_drawers_saving`); should it be refused as a whole for a
    reason of its items (not the database's), item by item as before, so one bad item fails
    alone, and its progress left to save (None)."""
    try:
        return drawer_batch.write_drawers_saving(
            ctx.store, news, ctx.policy, progress, memory=ctx.drawer_index, ready=ready
        )
    except CastlegraphError as error:
        if isinstance(error, GraphError | JobNotFound):
            raise  # the database failed, not the items: stop and resume later
    outcomes: list[drawer_batch.ItemOutcome] = []
    for new in news:
        try:
            outcomes.append(
                palace.write_drawer(ctx.store, new, ctx.policy, memory=ctx.drawer_index)
            )
        except CastlegraphError as error:
            if isinstance(error, GraphError):
                raise
            outcomes.append(error)
    return outcomes, None


def run_checkpoint(ctx: JobContext) -> dict[str, Any]:
    """Store the job's items from its saved position; the items are read once, from the job
    as claimed."""
    items: list[dict[str, Any]] = ctx.job.params["items"]
    state = ctx.job.state or {"next": 0, "stored": 0, "duplicates": 0}
    failed: list[dict[str, Any]] = state.pop("failed", None) or list(ctx.job.failures)
    sizes = [len(item["content"].encode("utf-8")) for item in items]
    ranges = list(batches(sizes, state["next"]))
    news = [[_new(ctx, index) for index in batch] for batch in ranges]
    with contextlib.closing(_prepared_ahead(ctx, news)) as ready:
        for position, (batch, texts) in enumerate(zip(ranges, ready, strict=True)):
            _write_batch(ctx, batch, news[position], texts, state, failed, first=position == 0)
    return {
        "items": len(items),
        "stored": state["stored"],
        "duplicates": state["duplicates"],
        "failed": failed,
    }


def _prepared_ahead(
    ctx: JobContext, news: list[list[NewDrawer]]
) -> Generator[list[PreparedText] | None, None, None]:
    """Each batch's prepared texts, from the worker, or None where the job prepares them."""
    if ctx.preparer is None:
        yield from itertools.repeat(None, len(news))
        return
    yield from ctx.preparer.batches(
        [[(new.wing, new.room, new.content) for new in batch] for batch in news]
    )


def _write_batch(
    ctx: JobContext,
    batch: range,
    news: list[NewDrawer],
    texts: list[PreparedText] | None,
    state: dict[str, Any],
    failed: list[dict[str, Any]],
    *,
    first: bool,
) -> None:
    """Store the batch's items not stored before a crash, count them, save the progress: in the
    batch's own statement, which then stores both or neither.

    Only the `first` batch of a run may hold such items: progress is saved with every batch,
    so a run that stopped (crash, stop, lost lease, database away) wrote at most the part of a
    batch before its last statement (a batch whose names repeat is written in parts, and on
    FalkorDB each part's statement commits alone). Later batches skip the read (one round trip
    each)."""
    ids = [new.drawer_id or "" for new in news]
    found = set(drawer_batch.drawers_by_ids(ctx.store, ids)) if first else set()
    stored_before = len(found)
    todo = [place for place, new in enumerate(news) if new.drawer_id not in found]
    indexes = [batch[place] for place in todo]

    def counted(outcomes: list[drawer_batch.ItemOutcome]) -> _Counted:
        return _Counted.of(state, failed, stored_before, indexes, outcomes, batch.stop)

    def progress(outcomes: list[drawer_batch.ItemOutcome]) -> ProgressSave:
        return counted(outcomes).save(ctx)

    ready = [texts[place] for place in todo] if texts is not None else None
    outcomes, saved = (
        _write(ctx, [news[place] for place in todo], ready, progress) if todo else ([], None)
    )
    now = counted(outcomes)
    state.clear()
    state.update(now.state)
    failed[:] = now.failed
    for outcome in outcomes:
        if not isinstance(outcome, CastlegraphError) and outcome.created:
            ctx.written(outcome.drawer.id)
    if saved is None:
        ctx.checkpoint(now.state, done=batch.stop, **now.changes())
    else:
        ctx.saved(saved)


@dataclass(frozen=True, slots=True)
class _Counted:
    """A job's counts and failures once a batch's outcomes are known: worked out again from the
    counts before the batch at each attempt, so a unit Neo4j's driver retries counts once."""

    state: dict[str, Any]
    failed: list[dict[str, Any]]
    grew: bool

    @classmethod
    def of(
        cls,
        state: dict[str, Any],
        failed: list[dict[str, Any]],
        stored_before: int,
        indexes: list[int],
        outcomes: list[drawer_batch.ItemOutcome],
        stop: int,
    ) -> "_Counted":
        counts = {**state, "next": stop}
        counts["stored"] += stored_before
        now = list(failed)
        for index, outcome in zip(indexes, outcomes, strict=True):
            if isinstance(outcome, CastlegraphError):
                now.append({"index": index, "code": outcome.code, "message": outcome.message})
            else:
                counts["stored" if outcome.created else "duplicates"] += 1
        return cls(counts, now, len(now) > len(failed))

    def changes(self) -> dict[str, Any]:
        """The fields a save writes besides the state: the failed list only when it grew."""
        return {"failures": self.failed} if self.grew else {}

    def save(self, ctx: JobContext) -> ProgressSave:
        return ctx.progress(self.state, done=self.state["next"], **self.changes())
