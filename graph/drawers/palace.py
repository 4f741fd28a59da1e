"""Use cases of the palace: write, supersede, read, list and delete drawers (design §4).

Each write reads its candidates from indexes, lets `resolver.drawers` name the likenesses and
makes every change in one final statement (`create_drawer`), so a failure leaves nothing half
written on either backend. Where the service knows every candidate the in-memory index chose,
the write reads nothing: its statement checks that nothing changed since (`_store_unread`).
"""

import uuid

from castlegraph.graph.backends.queries import Dialect
from castlegraph.graph.backends.store import GraphStore, Tx
from castlegraph.graph.cursors import decode_cursor, encode_cursor
from castlegraph.graph.drawers.candidates import (
    NO_FINGERPRINT,
    Lookup,
    await_candidates,
    chosen_candidates,
    known_candidates,
    read_candidates,
)
from castlegraph.graph.drawers.creation import Creation, Sequenced
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.drawers.likeness import likenesses_among, oldest_exact_copy, same_named
from castlegraph.graph.drawers.visibility import visible
from castlegraph.graph.errors import DrawerNotFound, DrawerSuperseded
from castlegraph.graph.indexes.drawer_index import DrawerIndex
from castlegraph.graph.indexes.sequenced_index import Counter
from castlegraph.graph.locks import PENDING_PAIRS, RoomLock, room_lock
from castlegraph.graph.records import Drawer, SimilarDrawer, WriteOutcome
from castlegraph.resolver.drawers import Likeness, PreparedText, prepare_text


def write_drawer(
    store: GraphStore,
    new: NewDrawer,
    policy: DedupPolicy,
    *,
    supersede: bool = False,
    memory: DrawerIndex | None = None,
) -> WriteOutcome:
    """Store a drawer unless it is an unnamed exact copy; link its likenesses. With `memory`
    (built), the candidates come from it (`graph.indexes.drawer_index`), which learns of the
    drawer."""
    stored = Sequenced()
    await_candidates(memory, policy)

    def work(tx: Tx) -> WriteOutcome:
        room = RoomLock(tx, room_lock(new.wing, new.room))
        holder: Drawer | None = None
        if new.name is not None:
            rows = room.run("current_drawers_by_name", wing=new.wing, room=new.room, name=new.name)
            holder = Drawer.from_props(rows[0]["drawer"]) if rows else None
        same = same_named(new, holder, supersede)
        if isinstance(same, WriteOutcome):
            return same
        return _store(tx, room, new, policy, same, store.dialect, memory, stored)

    return stored.done(memory, store.write(work, use_case="write_drawer"))


def supersede_drawer(
    store: GraphStore,
    drawer_id: str,
    content: str,
    policy: DedupPolicy,
    *,
    viewer: str | None = None,
    memory: DrawerIndex | None = None,
) -> WriteOutcome:
    """Close a drawer and store its replacement, which keeps its name, kind and agent."""
    stored = Sequenced()
    await_candidates(memory, policy)

    def work(tx: Tx) -> WriteOutcome:
        old = _get(tx, drawer_id, viewer)
        room = RoomLock(tx, room_lock(old.wing, old.room))
        old = _get(room, drawer_id)  # read again under the lock, which this read takes
        if not old.is_current:
            raise DrawerSuperseded(drawer_id, None)
        if old.content == content:
            return WriteOutcome(created=False, drawer=old, similar=[])
        new = NewDrawer(
            wing=old.wing,
            room=old.room,
            content=content,
            name=old.name,
            kind=old.kind,
            agent=old.agent,
            source_uri=old.source_uri,
            viewer=viewer,
        )
        return _store(tx, room, new, policy, old, store.dialect, memory, stored)

    return stored.done(memory, store.write(work, use_case="supersede_drawer"))


def _store(
    tx: Tx,
    room: RoomLock,
    new: NewDrawer,
    policy: DedupPolicy,
    replaced: Drawer | None,
    dialect: Dialect,
    memory: DrawerIndex | None,
    stored: Sequenced,
) -> WriteOutcome:
    """Store `new` in its `room`, locked here if it is not yet: by the unread write's own
    statement, else before the candidates are read."""
    prepared = prepare_text(new.wing, new.room, new.content, policy.near_threshold)
    lookup = None
    if policy.enabled and memory is not None and memory.ready:
        lookup = Lookup.of(memory, prepared)
        if replaced is None:
            outcome = _store_unread(tx, room, new, policy, prepared, lookup, dialect, stored)
            if outcome is not None:
                return outcome
    room.take()
    text = prepared.text
    likenesses: list[Likeness] = []
    if policy.enabled:
        if lookup is not None:
            found = chosen_candidates(tx, new, prepared, lookup)
        else:
            found = read_candidates(tx, new, prepared)
        candidates = [c for c in found if not replaced or c.id != replaced.id]
        exact = oldest_exact_copy(text, candidates)
        if exact is not None and new.name is None:
            return WriteOutcome(created=False, drawer=exact, similar=[])
        likenesses = likenesses_among(text, candidates, policy.near_threshold)
    creation = Creation.of(new, prepared, likenesses, replaced, policy, dialect)
    rows = tx.run("create_drawer_replacing" if replaced else "create_drawer", **creation.params)
    return creation.written(rows, stored)


def _store_unread(
    tx: Tx,
    room: RoomLock,
    new: NewDrawer,
    policy: DedupPolicy,
    prepared: PreparedText,
    lookup: "Lookup",
    dialect: Dialect,
    stored: Sequenced,
) -> WriteOutcome | None:
    """A write decided without reading the database, in one round trip (design §4.5): when
    the service knows every drawer the in-memory index chose (`known_candidates`), it compares
    with them and sends `create_drawer_unless_moved`, which creates the drawer only if the
    drawer sequence still stands where the index stood for the choice (`Lookup`) and no drawer
    of the room has the same content hash or fingerprint. None when the service does not know
    them all, or the statement wrote nothing: the write then reads its candidates
    (`chosen_candidates`).

    The statement takes the room's lock (`RoomLock.run`) unless the unit holds it already:
    what is read before it (more chosen drawers, where closed ones left a branch short:
    `settle`) its check makes exact, lock or not."""
    seen = lookup.seen
    if seen.epoch is None:
        return None
    candidates = known_candidates(tx, new, prepared, lookup)
    if candidates is None:
        return None
    likenesses = likenesses_among(prepared.text, candidates, policy.near_threshold)
    creation = Creation.of(new, prepared, likenesses, None, policy, dialect)
    rows = room.run(
        "create_drawer_unless_moved",
        **creation.params,
        seen_epoch=seen.epoch,
        seen_value=seen.value,
        seen_deletes=seen.deletes,
        content_hash=prepared.text.content_hash,
        fingerprint=prepared.text.fingerprint or NO_FINGERPRINT,
        token=str(uuid.uuid4()),
    )
    # No row: the counter is gone (a wiped graph), so nothing was written either.
    return creation.written(rows, stored) if rows and rows[0]["written"] else None


def _get(tx: Tx | RoomLock, drawer_id: str, viewer: str | None = None) -> Drawer:
    """The drawer; one `viewer` may not see is missing, with the answer of an unknown id."""
    rows = tx.run("drawer_by_id", id=drawer_id)
    if not rows:
        raise DrawerNotFound(drawer_id)
    drawer = Drawer.from_props(rows[0]["drawer"])
    if not visible(drawer.kind, drawer.agent, viewer):
        raise DrawerNotFound(drawer_id)
    return drawer


def get_drawer(store: GraphStore, drawer_id: str, *, viewer: str | None = None) -> Drawer:
    return store.read(lambda tx: _get(tx, drawer_id, viewer), use_case="get_drawer")


def similar_drawers(
    store: GraphStore, drawer_id: str, *, viewer: str | None = None
) -> list[SimilarDrawer]:
    """Both directions of SIMILAR_TO, by similarity descending then id; links to drawers the
    viewer may not see are left out."""

    def work(tx: Tx) -> list[SimilarDrawer]:
        _get(tx, drawer_id, viewer)
        rows = tx.run("similar_of_drawer", id=drawer_id, viewer=viewer)
        entries = [
            SimilarDrawer(
                drawer=row["drawer"],
                side="older" if row["written_later"] else "newer",
                kind=row["kind"],
                similarity=float(row["similarity"]),
                same_hash=bool(row["same_hash"]),
                same_fingerprint=bool(row["same_fingerprint"]),
                threshold=float(row["threshold"]),
                created_at=row["created_at"],
            )
            for row in rows
        ]
        return sorted(entries, key=lambda entry: (-entry.similarity, entry.drawer))

    return store.read(work, use_case="similar_drawers")


def delete_drawer(
    store: GraphStore,
    drawer_id: str,
    *,
    viewer: str | None = None,
    memory: DrawerIndex | None = None,
) -> None:
    """Delete the drawer with its edges, pending duplicate pairs included. Under the lock
    vectors take: a vector stored at the same moment never pairs with a drawer half deleted.
    The drawer sequence counts the delete, so that other instances forget the drawers they
    know; the in-memory index (`memory`) stops counting it (`graph.indexes.drawer_index`)."""

    def work(tx: Tx) -> Counter:
        _get(tx, drawer_id, viewer)
        tx.lock(PENDING_PAIRS)
        if tx.run("delete_drawer", id=drawer_id)[0]["deleted"] == 0:
            raise DrawerNotFound(drawer_id)
        [counted] = tx.run("count_drawer_delete")
        return Counter.of(counted)

    counter = store.write(work, use_case="delete_drawer")
    if memory is not None:
        memory.forget([drawer_id], counter)


def delete_similar(
    store: GraphStore, drawer_id: str, other_id: str, *, viewer: str | None = None
) -> None:
    """Remove the link between two drawers, whichever way it points (undoes the call)."""

    def work(tx: Tx) -> None:
        _get(tx, drawer_id, viewer)
        _get(tx, other_id, viewer)
        tx.run("delete_similar", id=drawer_id, other=other_id)

    store.write(work, use_case="delete_similar")


def list_room(
    store: GraphStore,
    wing: str,
    room: str,
    limit: int,
    cursor: str | None,
    *,
    viewer: str | None = None,
) -> tuple[list[Drawer], str | None]:
    """Current drawers of a room, oldest first, with an opaque keyset cursor.

    The statement leaves out what the viewer may not see, so every page is full and its cursor,
    the key of its last row, is always a drawer the viewer sees. A cursor is only a position:
    one crafted from a hidden entry's key pages on from there like any other.
    """
    after_created, after_id = decode_cursor(cursor, 2) if cursor else (None, None)
    rows = store.read(
        lambda tx: tx.run(
            "room_drawers_page",
            wing=wing,
            room=room,
            limit=limit + 1,
            after_created=after_created,
            after_id=after_id,
            viewer=viewer,
        ),
        use_case="list_room",
    )
    drawers = [Drawer.from_props(row["drawer"]) for row in rows]
    page, more = drawers[:limit], len(drawers) > limit
    next_cursor = encode_cursor(page[-1].created_at, page[-1].id) if more and page else None
    return page, next_cursor
