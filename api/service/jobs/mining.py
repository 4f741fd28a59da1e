"""The mining job: every text file of a directory, chunked and stored as drawers (design §4.4).

Each chunk is a named drawer (`path#n`), so the name is its identity in the room: an unchanged
chunk is left alone, a changed one supersedes its old version (closed before the new one is
compared), and two identical files are two records linked `exact`. Chunk drawers get ids
derived from (job id, file, chunk), so a resumed job stores and links nothing twice.
"""

import hashlib
from pathlib import Path
from typing import Any

from api.service.jobs.context import JobContext
from api.service.jobs.files import list_documents, read_text
from graph import drawers
from graph.errors import DrawerNotFound
from graph.jobs import item_id
from graph.records import Drawer
from resolver.chunks import DEFAULT_CHUNK_CHARS, chunk_text

COUNTS = ("created", "unchanged", "superseded", "similar")


def _previous(ctx: JobContext, drawer_id: str) -> Drawer | None:
    try:
        return drawers.get_drawer(ctx.store, drawer_id)
    except DrawerNotFound:
        return None


def _store_chunk(ctx: JobContext, state: dict[str, Any], new: drawers.NewDrawer) -> None:
    assert new.drawer_id is not None
    earlier = _previous(ctx, new.drawer_id)
    if earlier is not None:  # stored by this job before an interruption
        state["superseded" if earlier.supersedes else "created"] += 1
        linked = any(s.side == "older" for s in drawers.similar_drawers(ctx.store, earlier.id))
    else:
        outcome = drawers.write_drawer(ctx.store, new, ctx.policy, supersede=True)
        if not outcome.created:
            state["unchanged"] += 1
            return
        state["superseded" if outcome.superseded else "created"] += 1
        ctx.written(outcome.drawer.id)
        linked = bool(outcome.similar)
    state["similar"] += int(linked)


def run_mine(ctx: JobContext) -> dict[str, Any]:
    params = ctx.job.params
    root = Path(params["path"])
    size = int(params.get("chunk_chars") or DEFAULT_CHUNK_CHARS)
    state = ctx.job.state or {"next": 0, "skipped": 0, **dict.fromkeys(COUNTS, 0)}
    # The file list is written once, with the first save; a save after each file writes the
    # position and counts only (design §11). Jobs saved before kept it in their state.
    listed = state.pop("files", None) or ctx.job.files
    files: list[str] = listed if listed is not None else list_documents(root)
    first = ctx.job.files is None
    for index in range(state["next"], len(files)):
        relative = files[index]
        text = read_text(root / relative if root.is_dir() else root, boundary=root)
        if text is None:
            state["skipped"] += 1
        else:
            revision = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
            for number, chunk in enumerate(chunk_text(text, size)):
                _store_chunk(
                    ctx,
                    state,
                    drawers.NewDrawer(
                        wing=params["wing"],
                        room=params["room"],
                        content=chunk,
                        name=f"{relative}#{number}",
                        kind="file",
                        source_uri=relative,
                        drawer_id=item_id(ctx.job.id, f"{index}:{number}"),
                        origin={"document": relative, "chunk": number, "revision": revision},
                    ),
                )
        state["next"] = index + 1
        extra: dict[str, Any] = {"files": files, "progress_total": len(files)} if first else {}
        ctx.checkpoint(state, done=index + 1, **extra)
        first = False
    return {
        "files": len(files) - state["skipped"],
        "skipped": state["skipped"],
        **{name: state[name] for name in COUNTS},
    }
