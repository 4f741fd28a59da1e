"""The mining job: every text file of a directory, chunked and stored as drawers (design §4.4).

Each chunk is a drawer named `path#n`, its identity in the room: an unchanged chunk is left
alone, a changed one supersedes its old version. Ids derive from (job, file, chunk), so a
resumed job stores and links nothing twice. Re-mining retires what the tree no longer says; a
bad file or directory is counted in `failed` with its reason and the job goes on (design §11).
"""

import hashlib
import os
from pathlib import Path
from typing import Any

from castlegraph.api.service.jobs.batches import batches
from castlegraph.api.service.jobs.context import JobContext
from castlegraph.api.service.jobs.files import BadFile, list_documents, read_document
from castlegraph.api.service.jobs.tree import MinedTree
from castlegraph.graph.drawers import drawer_batch, mined, palace
from castlegraph.graph.drawers.drawer_request import NewDrawer
from castlegraph.graph.errors import GraphError
from castlegraph.graph.jobs import item_id
from castlegraph.resolver.chunks import DEFAULT_CHUNK_CHARS, chunk_text
from castlegraph.resolver.errors import CastlegraphError

COUNTS = ("created", "unchanged", "superseded", "similar", "retired")
FAILED_LISTED = 100
"""Failed files listed in a result (all are counted): a tree of broken files must not make the
job's node, or each save of it, grow without bound."""


def shown(relative: str) -> str:
    """A relative path as JSON can carry it: bytes that are not UTF-8 (kept by `os.walk` as
    surrogates) are shown as `\\xff` escapes."""
    return os.fsencode(relative).decode("utf-8", "backslashreplace")


def _read(tree: MinedTree, relative: str) -> str | None:
    try:
        relative.encode("utf-8")
    except UnicodeEncodeError as error:  # the name could be neither stored nor sent
        raise BadFile("undecodable_name") from error
    return read_document(tree, relative)


def _store_chunks(
    ctx: JobContext, state: dict[str, Any], news: list[NewDrawer], *, first: bool
) -> None:
    """Chunks of one file as batches (`graph.drawers.drawer_batch`), each as if stored one by one.
    Only the `first` file of a run can hold chunks this job stored before it stopped (progress
    is saved after each file), so only its batches read which of their ids exist."""
    sizes = [len(new.content.encode("utf-8")) for new in news]
    for batch in batches(sizes, 0):
        part = [news[index] for index in batch]
        ids = [new.drawer_id or "" for new in part]
        earlier = drawer_batch.drawers_by_ids(ctx.store, ids) if first else {}
        for drawer in earlier.values():  # stored by this job before an interruption
            state["superseded" if drawer.supersedes else "created"] += 1
            similar = palace.similar_drawers(ctx.store, drawer.id)
            state["similar"] += int(any(s.side == "older" for s in similar))
        todo = [new for new in part if new.drawer_id not in earlier]
        outcomes = (
            drawer_batch.write_drawers(
                ctx.store, todo, ctx.policy, supersede=True, memory=ctx.drawer_index
            )
            if todo
            else []
        )
        for outcome in outcomes:
            if isinstance(outcome, CastlegraphError):
                raise outcome  # the file fails, as it did when its chunks were written singly
            if not outcome.created:
                state["unchanged"] += 1
                continue
            state["superseded" if outcome.superseded else "created"] += 1
            state["similar"] += int(bool(outcome.similar))
            ctx.written(outcome.drawer.id)


def root_digest(root: Path) -> str:
    """What names a mining root on its chunks: the same for every mine of that path, and not
    the path itself (drawers are read by callers who have no business knowing it). Re-mining
    retires by it, so two roots mined into one room never retire each other's files."""
    return hashlib.sha256(os.fsencode(root)).hexdigest()[:16]


def _store_file(
    ctx: JobContext, state: dict[str, Any], relative: str, text: str, index: int, *, first: bool
) -> None:
    params = ctx.job.params
    size = int(params.get("chunk_chars") or DEFAULT_CHUNK_CHARS)
    revision = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    root = root_digest(Path(params["path"]))
    chunks = chunk_text(text, size)
    _store_chunks(
        ctx,
        state,
        [
            NewDrawer(
                wing=params["wing"],
                room=params["room"],
                content=chunk,
                name=f"{relative}#{number}",
                kind="file",
                source_uri=relative,
                drawer_id=item_id(ctx.job.id, f"{index}:{number}"),
                origin={
                    "document": relative,
                    "chunk": number,
                    "revision": revision,
                    "root": root,
                },
            )
            for number, chunk in enumerate(chunks)
        ],
        first=first,
    )
    state["retired"] += mined.retire_past_end(
        ctx.store, ctx.job.id, params["wing"], params["room"], relative, len(chunks)
    )


def run_mine(ctx: JobContext) -> dict[str, Any]:
    root = Path(ctx.job.params["path"])
    with MinedTree(root) as tree:
        return _mine(ctx, tree)


def _failure(
    state: dict[str, Any], failed: list[dict[str, str]], relative: str, reason: str
) -> bool:
    """Count one failure; whether the listed ones grew (then they are saved: only then, so a
    save stays as small at file 10,000 as at file 1). Paths are relative to the mined root,
    never the server's absolute path."""
    state["failed"] += 1
    if len(failed) >= FAILED_LISTED:
        return False
    failed.append({"path": shown(relative), "reason": reason})
    return True


def _retire_vanished(
    ctx: JobContext,
    state: dict[str, Any],
    failed: list[dict[str, str]],
    files: list[str],
    tree: MinedTree,
) -> int:
    """Retire the chunks of files the tree no longer holds (deleted, or now ignored), but not
    of those in a directory that could not be listed this time: a failure to read is no news
    about a file, and a file still listed but unread keeps its chunks too. Unlisted directories
    are the listed failures ending in `/`; when not all of them could be listed, which
    directories they were is unknown and nothing retires."""
    unlisted = [entry["path"] for entry in failed if entry["path"].endswith("/")]
    if len(unlisted) < state["failed_directories"]:
        return 0
    params = ctx.job.params
    return mined.retire_vanished(
        ctx.store,
        ctx.job.id,
        params["wing"],
        params["room"],
        root_digest(tree.root),
        files,
        unlisted,
    )


def _mine(ctx: JobContext, tree: MinedTree) -> dict[str, Any]:
    state = ctx.job.state or {"next": 0, "skipped": 0, **dict.fromkeys(COUNTS, 0)}
    for name in ("failed", "retired", "failed_directories"):
        state.setdefault(name, 0)  # saved before these were counted
    failed: list[dict[str, str]] = list(ctx.job.failures)
    # The file list is written once, with the first save; a save after each file writes the
    # position and counts only (design §11). Jobs saved before kept it in their state.
    listed = state.pop("files", None) or ctx.job.files
    grew = False
    if listed is None:
        listing = list_documents(tree)
        for directory, reason in listing.failures:
            grew = _failure(state, failed, directory, reason) or grew
        state["failed_directories"] = len(listing.failures)
        listed = listing.files
    files: list[str] = listed
    first = ctx.job.files is None
    start = state["next"]
    for index in range(start, len(files)):
        relative = files[index]
        try:
            text = _read(tree, relative)
            if text is None:
                state["skipped"] += 1
            else:
                _store_file(ctx, state, relative, text, index, first=index == start)
        except (BadFile, CastlegraphError) as error:
            if isinstance(error, GraphError):
                raise  # the database failed, not the file: stop and resume later
            reason = error.reason if isinstance(error, BadFile) else str(error.code)
            grew = _failure(state, failed, relative, reason) or grew
        state["next"] = index + 1
        extra: dict[str, Any] = {"files": files, "progress_total": len(files)} if first else {}
        if grew:
            extra["failures"] = failed
        ctx.checkpoint(state, done=index + 1, **extra)
        first = grew = False
    state["retired"] += _retire_vanished(ctx, state, failed, files, tree)
    failed_files = state["failed"] - state["failed_directories"]
    return {
        "files": len(files) - state["skipped"] - failed_files,
        "skipped": state["skipped"],
        **{name: state[name] for name in COUNTS},
        "failed": failed,
        "failed_count": state["failed"],
    }
