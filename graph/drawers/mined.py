"""Retiring mined chunks that no longer stand for their file (design §4.4).

A mined chunk is the drawer named `path#n` of its room. Re-mining a file that now has fewer
chunks, or no longer finding a file its root held, leaves drawers that say what the tree no
longer says: they are *retired* — closed (`valid_to`), so listings and candidate searches pass
them by, but kept, with their links, because a memory is never deleted by a job.
"""

from collections.abc import Iterable

from castlegraph.graph.backends.store import GraphStore, Tx
from castlegraph.graph.clock import utc_now
from castlegraph.graph.locks import room_lock

PROBE = 64
"""Chunk names past a file's new end asked about per statement; a file that lost more is asked
again, so the usual case (nothing to retire) costs one indexed lookup."""

BATCH = 1000


def _retire_names(store: GraphStore, job: str, wing: str, room: str, names: list[str]) -> int:
    def work(tx: Tx) -> int:
        tx.lock(room_lock(wing, room))  # writes to the room wait: none sees it half done
        rows = tx.run(
            "retire_mined_chunks", names=names, wing=wing, room=room, job=job, now=utc_now()
        )
        return int(rows[0]["retired"]) if rows else 0

    return store.write(work, use_case="retire_mined_chunks")


def retire_past_end(
    store: GraphStore, job: str, wing: str, room: str, document: str, chunks: int
) -> int:
    """Retire `document#n` for every n ≥ `chunks` (its chunks are numbered without gaps);
    how many were retired, counting those this job retired before an interruption."""
    retired, start = 0, chunks
    while True:
        names = [f"{document}#{number}" for number in range(start, start + PROBE)]
        found = _retire_names(store, job, wing, room, names)
        retired += found
        if found < PROBE:
            return retired
        start += PROBE


def retire_vanished(
    store: GraphStore,
    job: str,
    wing: str,
    room: str,
    root: str,
    present: Iterable[str],
    unlisted: Iterable[str] = (),
) -> int:
    """Retire the chunks mined from `root` (their `origin_root`) into the room whose document
    is not in `present`, the tree as listed now. Documents under a directory of `unlisted`
    (`dir/`, the root `./`), which could not be listed this time, stay: that is no news."""
    rows = store.read(
        lambda tx: tx.run("mined_documents", wing=wing, room=room, root=root, job=job),
        use_case="mined_documents",
    )
    keep = set(present)
    unknown = tuple("" if directory == "./" else directory for directory in unlisted)
    stale = sorted(
        row["name"]
        for row in rows
        if row["document"] not in keep and not row["document"].startswith(unknown)
    )
    retired = 0
    for start in range(0, len(stale), BATCH):
        retired += _retire_names(store, job, wing, room, stale[start : start + BATCH])
    return retired
