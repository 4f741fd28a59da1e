"""Many drawer writes at once, as if written one by one (design §4.3, §4.4).

Jobs store hundreds of items, and one transaction per item made a checkpoint slower than single
writes through the API: `write_drawers` locks every room the batch touches, reads the candidates
of all its items, decides each in order in Python, and stores each part in one statement.
"""

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from castlegraph.graph.backends.queries import Dialect
from castlegraph.graph.backends.store import GraphStore, Tx
from castlegraph.graph.clock import utc_now
from castlegraph.graph.drawers.batch_items import PreparedDrawer, Stored
from castlegraph.graph.drawers.batch_reads import Found, read_batch_candidates, read_batch_chosen
from castlegraph.graph.drawers.candidates import (
    Candidate,
    await_candidates,
)
from castlegraph.graph.drawers.drawer_props import drawer_write_props, joined, new_drawer_record
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.drawers.likeness import (
    likenesses_among,
    link_evidence,
    oldest_exact_copy,
    same_named,
    similar_entry,
)
from castlegraph.graph.errors import DrawerNameTaken, JobNotFound
from castlegraph.graph.indexes.drawer_index import DrawerIndex
from castlegraph.graph.indexes.known_drawers import KnownDrawer
from castlegraph.graph.jobs import (
    NO_PROGRESS_SAVE,
    ProgressSave,
    Saved,
    save_progress_in,
    saved_progress,
)
from castlegraph.graph.locks import room_lock
from castlegraph.graph.records import Drawer, WriteOutcome
from castlegraph.resolver.drawers import Likeness, PreparedText, prepare_texts
from castlegraph.resolver.errors import CastlegraphError

ItemOutcome = WriteOutcome | CastlegraphError
"""What one item of a batch came to: written (or found), or refused (for its name)."""


def prepare_drawers(
    items: Sequence[NewDrawer],
    near_threshold: float,
    ready: Sequence[PreparedText] | None = None,
) -> list[PreparedDrawer]:
    """The items with their normal forms, index terms and probes, for `write_drawers`; those
    of `ready` (one per item, in order) where given, else prepared here (`prepare_texts`)."""
    if ready is None:
        places = [(new.wing, new.room, new.content) for new in items]
        ready = prepare_texts(places, near_threshold)
    return [
        PreparedDrawer.of(i, new, text)
        for i, (new, text) in enumerate(zip(items, ready, strict=True))
    ]


def write_drawers(
    store: GraphStore,
    items: Sequence[NewDrawer],
    policy: DedupPolicy,
    *,
    supersede: bool = False,
    memory: DrawerIndex | None = None,
    ready: Sequence[PreparedText] | None = None,
) -> list[ItemOutcome]:
    """Write `items` in order, as `graph.drawers.palace.write_drawer` would one by one; one outcome
    per item (a refused name is an outcome, not an exception: the rest are written). The items
    are prepared before the transaction (`prepare_drawers`), or were (`ready`). With `memory`
    (built), every part's candidates come from it (`graph.indexes.drawer_index`), as it stands
    for the part (`_for_next_part`). The batch's own drawers are compared from memory (`_SoFar`).

    Candidates are read for all items at once: on Neo4j in one round trip
    (`drawer_batch_candidates`: per item exactly what `graph.drawers.palace` reads for one write);
    on FalkorDB with that very statement, item by item, which costs it less, and the name holders of
    all in one round trip. Each item is then decided in order, so it is compared with the room as it
    was *and* with the items of the batch before it, as a single write made after them would be, and
    the lot is stored in one statement (`create_drawers`).

    A part of the batch ends where an item repeats a name an earlier item of that part holds in its
    room: the second is decided against the first as stored, by the next part, in the same
    transaction. Each part is one candidate read (on Neo4j) and one write statement.

    Everything an item's decision needs from its own text (normal form, sketch, terms, probes) is
    computed before the transaction (`prepare_drawers`), so no write of the service waits on the
    lock while a batch is hashed.
    """
    outcomes, _ = _write_units(store, items, policy, supersede, memory, ready, None)
    return outcomes


ProgressOf = Callable[[list[ItemOutcome]], ProgressSave]
"""A job's progress once a batch's outcomes are these (a pure function of them: a unit Neo4j's
driver retries decides the batch again)."""


def write_drawers_saving(
    store: GraphStore,
    items: Sequence[NewDrawer],
    policy: DedupPolicy,
    progress: ProgressOf,
    *,
    memory: DrawerIndex | None = None,
    ready: Sequence[PreparedText] | None = None,
) -> tuple[list[ItemOutcome], Saved]:
    """`write_drawers` for a job's batch, saving the job's `progress` in the batch's last
    statement (`create_drawers`; a statement of its own in the same unit when that part stores
    nothing): one statement fewer per batch, and the batch and its progress are one write,
    where a crash between the two left the batch stored and its progress not."""
    outcomes, saved = _write_units(store, items, policy, False, memory, ready, progress)
    if saved is None:
        raise ValueError("a batch saving its progress holds items")
    return outcomes, saved


def _write_units(
    store: GraphStore,
    items: Sequence[NewDrawer],
    policy: DedupPolicy,
    supersede: bool,
    memory: DrawerIndex | None,
    ready: Sequence[PreparedText] | None,
    progress: ProgressOf | None,
) -> tuple[list[ItemOutcome], Saved | None]:
    if not items:
        return [], None
    prepared = prepare_drawers(items, policy.near_threshold, ready)
    await_candidates(memory, policy)
    stamped: list[_Stamp] = []

    def work(tx: Tx) -> tuple[list[ItemOutcome], Saved | None]:
        stamped.clear()
        so_far = _SoFar()
        for wing, room in sorted({item.place for item in prepared}):
            tx.lock(room_lock(wing, room))
        # The index catches up in the part's first read, which reads the drawer sequence too.
        chosen = memory if memory is not None and policy.enabled and memory.ready else None
        outcomes: list[ItemOutcome] = []
        parts = list(_parts(list(prepared)))
        saved: Saved | None = None
        for number, part in enumerate(parts):
            take_in = _for_next_part(tx, chosen, store.dialect) if number else True
            decided = _decide_part(
                tx, part, policy, supersede, store.dialect, chosen, so_far, take_in=take_in
            )
            outcomes.extend(decided.outcomes)
            save = progress(outcomes) if progress and number == len(parts) - 1 else None
            saved = _store_part(tx, decided, store.dialect, stamped, save)
            if save is not None and saved is None:
                saved = save_progress_in(tx, save)
        return outcomes, saved

    outcomes, saved = store.write(work, use_case="write_drawers")
    if memory is not None:
        for stamp in stamped:
            memory.written(stamp.epoch, stamp.seq, stamp.drawers, stamp.closed)
    return outcomes, saved


def _for_next_part(tx: Tx, chosen: DrawerIndex | None, dialect: Dialect) -> bool:
    """Make the index fit to answer the next part; whether that part's read may take in what
    the drawer sequence shows. On FalkorDB, whose statements commit one by one, the index takes
    in the part just written (design §5.4). On Neo4j the parts before are not committed: the
    index must not take them in (a unit that then failed would leave them in it), and need
    not: it holds the batch's rooms as the unit's locks keep them, and the batch's own drawers
    are compared from memory (`_SoFar`)."""
    if dialect != "falkordb":
        return False
    if chosen is not None:
        chosen.catch_up(tx)
    return True


@dataclass
class _SoFar:
    """The items the batch stored so far and the drawers it closed, which each later item
    compares with in memory, in its own part as in a later one: on Neo4j no index gives a
    later part the unit's own drawers (the term index is eventually consistent and does not see
    the transaction's writes, `13_drawer_terms.cypher`; the in-memory index does not take them
    in, `_for_next_part`), and what the candidate read gives of them (by hash or fingerprint)
    is set aside, so both databases decide alike."""

    stored: list[Stored] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    """The ids of `stored`, for the candidates' check."""
    closed: set[str] = field(default_factory=set)

    def keep(self, stored: Stored, superseded: str | None) -> None:
        self.stored.append(stored)
        self.ids.add(stored.drawer.id)
        if superseded is not None:
            self.closed.add(superseded)


@dataclass(frozen=True, slots=True)
class _Stamp:
    """What one `create_drawers` statement stamped (`graph.indexes.drawer_index`)."""

    epoch: str | None
    seq: int
    drawers: list[tuple[str, list[str], KnownDrawer]]
    closed: list[str]


def _parts(items: list[PreparedDrawer]) -> Iterator[list[PreparedDrawer]]:
    """Runs of items in which no name repeats in a room (see `write_drawers`)."""
    part: list[PreparedDrawer] = []
    names: set[tuple[str, str, str]] = set()
    for item in items:
        key = (item.new.wing, item.new.room, item.new.name or "")
        if item.new.name is not None and key in names:
            yield part
            part, names = [], set()
        part.append(item)
        if item.new.name is not None:
            names.add(key)
    if part:
        yield part


@dataclass(frozen=True, slots=True)
class _Decided:
    """A part's items decided: their outcomes, and what its statement stores."""

    outcomes: list[ItemOutcome]
    stored: list[Stored]
    closing: list[dict[str, str]]
    links: list[dict[str, object]]


def _decide_part(
    tx: Tx,
    part: list[PreparedDrawer],
    policy: DedupPolicy,
    supersede: bool,
    dialect: Dialect,
    memory: DrawerIndex | None,
    so_far: _SoFar,
    *,
    take_in: bool,
) -> _Decided:
    if memory is not None:
        found = read_batch_chosen(tx, part, memory, take_in=take_in)
    else:
        found = read_batch_candidates(tx, part, policy.enabled, dialect)
    decided = _Decided([], [], [], [])
    for item in part:
        outcome = _decide(item, found[item.index], so_far, policy, supersede)
        decided.outcomes.append(outcome)
        if isinstance(outcome, WriteOutcome) and outcome.created:
            decided.stored.append(Stored(item, outcome.drawer))
            so_far.keep(decided.stored[-1], outcome.superseded)
            if outcome.superseded is not None:
                decided.closing.append({"id": outcome.superseded, "now": outcome.drawer.created_at})
            decided.links.extend(
                {"from": outcome.drawer.id, "to": entry.drawer, "evidence": link_evidence(entry)}
                for entry in outcome.similar
            )
    return decided


def _store_part(
    tx: Tx,
    decided: _Decided,
    dialect: Dialect,
    stamped: list[_Stamp],
    save: ProgressSave | None,
) -> Saved | None:
    """Store a decided part in one statement (none when it stores nothing), which saves a job's
    progress too when given one (`save`): what that save answered."""
    stored, closing = decided.stored, decided.closing
    if not stored:
        return None
    rows = tx.run(
        "create_drawers",
        closing_ids=[c["id"] for c in closing],
        closing=closing,
        rooms=[{"wing": w, "room": r} for w, r in sorted({s.item.place for s in stored})],
        drawers=[
            {
                "wing": s.item.new.wing,
                "room": s.item.new.room,
                "props": drawer_write_props(s.drawer, s.item.stored_terms, dialect),
                "terms": joined(s.item.stored_terms),
            }
            for s in stored
        ],
        links=decided.links,
        **(save.params() if save is not None else NO_PROGRESS_SAVE),
    )
    stamped.append(
        _Stamp(
            rows[0]["epoch"],
            int(rows[0]["seq"]),
            [
                (s.drawer.id, s.item.stored_terms, KnownDrawer.of(s.drawer, s.item.text))
                for s in stored
            ],
            [c["id"] for c in closing],
        )
    )
    if save is None:
        return None
    if rows[0]["status"] is None:
        raise JobNotFound(save.job_id)
    return saved_progress(rows[0])


def _decide(
    item: PreparedDrawer,
    found: Found,
    so_far: _SoFar,
    policy: DedupPolicy,
    supersede: bool,
) -> ItemOutcome:
    """One item, decided as `graph.drawers.palace.write_drawer` decides it after the earlier
    ones.

    Within the batch an earlier item is a candidate when it shares the hash, the fingerprint, a word
    pair or a band with the item, which is what the indexes would find once it is stored; the
    indexes' caps (postings per term, best candidates per write) are not applied to it, so in a room
    where a term is common a batch may find more than one-by-one writes would (never less).
    """
    new = item.new
    holder = found.holders[0] if new.name is not None and found.holders else None
    try:
        same = same_named(new, holder, supersede)
    except DrawerNameTaken as taken:
        return taken
    if isinstance(same, WriteOutcome):
        return same
    replaced = same
    closed = so_far.closed | ({replaced.id} if replaced else set())
    likenesses: list[Likeness] = []
    if policy.enabled:
        likenesses_or_copy = _likenesses(item, found, so_far, closed, policy.near_threshold)
        if isinstance(likenesses_or_copy, Drawer):
            return WriteOutcome(created=False, drawer=likenesses_or_copy, similar=[])
        likenesses = likenesses_or_copy
    now = utc_now()
    drawer = new_drawer_record(new, item.text, now, replaced)
    similar = [similar_entry(link, policy.near_threshold, now) for link in likenesses]
    return WriteOutcome(
        created=True, drawer=drawer, similar=similar, superseded=replaced.id if replaced else None
    )


def _likenesses(
    item: PreparedDrawer,
    found: Found,
    so_far: _SoFar,
    closed: set[str],
    threshold: float,
) -> list[Likeness] | Drawer:
    """The links of a new item, or the drawer an unnamed exact copy returns. The batch's own
    drawers are compared from memory (`_SoFar`), never as the candidate read gave them."""
    text = item.text
    from_room = [
        c for c in found.candidates.values() if c.id not in closed and c.id not in so_far.ids
    ]
    from_batch = [s for s in so_far.stored if s.drawer.id not in closed and item.finds(s)]
    if item.new.name is None:
        exact = oldest_exact_copy(text, from_room)
        if exact is not None:
            return exact
        for earlier in from_batch:  # stored in order: the first is the oldest
            if earlier.drawer.content_hash == text.content_hash:
                return earlier.drawer
    whole = [Candidate(s.drawer.id, s.item.text, s.drawer.norm_len, s.drawer) for s in from_batch]
    return likenesses_among(text, [*from_room, *whole], threshold)


def drawers_by_ids(store: GraphStore, ids: Sequence[str]) -> dict[str, Drawer]:
    """The drawers among `ids` that exist, in one read: how a resumed job finds the items it
    stored before it stopped (their ids derive from the job and the item)."""
    rows = store.read(lambda tx: tx.run("drawers_by_ids", ids=list(ids)), use_case="drawers_by_ids")
    found = (Drawer.from_props(row["drawer"]) for row in rows)
    return {drawer.id: drawer for drawer in found}
