"""Many drawer writes at once, as if written one by one (design §4.3, §4.4).

Jobs store hundreds of items: one transaction per item made a checkpoint slower than single
writes over HTTP. `write_drawers` takes the locks of every room the batch touches, reads the
candidates of all its items (on Neo4j in one round trip, `drawer_batch_candidates`: per item
exactly what `graph.drawers.palace` reads for one write; on FalkorDB with that very statement, item
by item, which costs it less, and the name holders of all in one round trip), decides each item in
order in Python — so an item is compared with the room as it was *and* with the items of the batch
before it, as a single write made after them would be — and stores the lot in one statement
(`create_drawers`).

Within the batch an earlier item is a candidate when it shares the hash, the fingerprint, a
word pair or a band with the item, which is what the indexes would find once it is stored;
the indexes' caps (postings per term, best candidates per write) are not applied to it, so in
a room where a term is common a batch may find more than one-by-one writes would (never less).

A part of the batch ends where an item repeats a name an earlier item of that part holds in
its room: the second is decided against the first as stored, by the next part, in the same
transaction. Each part is one candidate read (on Neo4j) and one write statement.

Everything an item's decision needs from its own text (normal form, sketch, terms, probes) is
computed before the transaction (`prepare_drawers`), so no write of the service waits on the
lock while a batch is hashed.
"""

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from castlegraph.graph.backends.queries import Dialect
from castlegraph.graph.backends.store import GraphStore, Row, Tx
from castlegraph.graph.clock import utc_now
from castlegraph.graph.drawers.candidates import (
    CANDIDATE_LIMITS,
    EXACT_LOOKUP_LIMIT,
    MEMORY_LIMITS,
    Candidate,
    CurrentChosen,
    await_candidates,
    by_ids_params,
    candidate_params,
    chosen_reader,
    first_ids,
    probe_params,
    settle,
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
from castlegraph.graph.errors import CastlegraphError, DrawerNameTaken
from castlegraph.graph.indexes.drawer_index import Choice, DrawerIndex, Probes
from castlegraph.graph.indexes.known_drawers import KnownDrawer
from castlegraph.graph.indexes.sequenced_index import Counter
from castlegraph.graph.records import Drawer, WriteOutcome
from castlegraph.resolver.drawers import DrawerText, Likeness, PreparedText, prepare_texts

ItemOutcome = WriteOutcome | CastlegraphError
"""What one item of a batch came to: written (or found), or refused (for its name)."""


@dataclass(frozen=True, slots=True)
class PreparedDrawer:
    """One item with everything its decision needs, computed once and before the write: it
    reads nothing, so no write waits on the lock while an item is sketched
    (`prepare_drawers`)."""

    index: int
    new: NewDrawer
    text: DrawerText
    anchors: list[str]
    bands: list[str]
    lengths: tuple[int, int]
    """The candidates' normal-form lengths that allow a near copy (`near_lengths`)."""
    stored_terms: list[str]
    """What it is indexed by once stored (word pairs, bands of its own length bucket)."""
    indexed: frozenset[str]

    @classmethod
    def of(cls, index: int, new: NewDrawer, prepared: PreparedText) -> "PreparedDrawer":
        """The item with its text prepared for its room (`prepare_text`)."""
        return cls(
            index=index,
            new=new,
            text=prepared.text,
            anchors=prepared.terms.anchors,
            bands=prepared.terms.bands,
            lengths=prepared.lengths,
            stored_terms=prepared.terms.stored,
            indexed=frozenset(prepared.terms.stored),
        )

    @property
    def place(self) -> tuple[str, str]:
        return self.new.wing, self.new.room

    def probe(self) -> dict[str, object]:
        """The item's parameters of `drawer_batch_candidates`: those of one write, tagged."""
        params = probe_params(self.new, self.text, self.anchors, self.bands, self.lengths)
        return {"item": self.index, **params}

    def single_probe(self) -> dict[str, object]:
        """The item's parameters of `drawer_candidates`, as one write of it would read."""
        return candidate_params(self.new, self.text, self.anchors, self.bands, self.lengths)

    def finds(self, earlier: "_Stored") -> bool:
        """Whether the indexes would give `earlier`, once stored, as this item's candidate."""
        other, drawer = earlier.item, earlier.drawer
        if not self.new.compares_with(drawer.wing, drawer.room, drawer.agent, drawer.kind):
            return False
        if other.text.content_hash == self.text.content_hash:
            return True
        if self.text.fingerprint is not None and other.text.fingerprint == self.text.fingerprint:
            return True
        return not other.indexed.isdisjoint(self.anchors) or not other.indexed.isdisjoint(
            self.bands
        )


@dataclass(frozen=True, slots=True)
class _Stored:
    """An item of the batch that is being stored: a candidate of the items after it."""

    item: PreparedDrawer
    drawer: Drawer


@dataclass
class _Found:
    """What the batch's candidate read gave one item."""

    candidates: dict[str, Candidate]
    holders: list[Drawer]


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
    (built), the first part's candidates come from it (`graph.indexes.drawer_index`); a later part's
    from the database's term index, which holds the parts before it (the index learns of them
    only once they commit), or, where the database keeps none, from the index caught up on
    them (`_for_next_part`)."""
    if not items:
        return []
    prepared = prepare_drawers(items, policy.near_threshold, ready)
    await_candidates(memory, policy)
    stamped: list[_Stamp] = []

    def work(tx: Tx) -> list[ItemOutcome]:
        stamped.clear()
        for wing, room in sorted({item.place for item in prepared}):
            tx.lock(f"room\x1f{wing}\x1f{room}")
        # The index catches up in the part's first read, which reads the drawer sequence too.
        chosen = memory if memory is not None and policy.enabled and memory.ready else None
        outcomes: list[ItemOutcome] = []
        for number, part in enumerate(_parts(list(prepared))):
            if number:
                chosen = _for_next_part(tx, chosen)
            outcomes.extend(
                _write_part(tx, part, policy, supersede, store.dialect, chosen, stamped)
            )
        return outcomes

    outcomes = store.write(work, use_case="write_drawers")
    if memory is not None:
        for stamp in stamped:
            memory.written(stamp.epoch, stamp.seq, stamp.drawers, stamp.closed)
    return outcomes


def _for_next_part(tx: Tx, chosen: DrawerIndex | None) -> DrawerIndex | None:
    """The index for the next part, if it may answer: where the database keeps a term index,
    it answers (on Neo4j the parts before are not committed, so the index cannot take them in);
    where it keeps none (FalkorDB, whose statements commit one by one), the index takes in the
    part just written and answers (design §5.4)."""
    if chosen is None or chosen.database_answers:
        return None
    chosen.catch_up(tx)
    return chosen


@dataclass(frozen=True, slots=True)
class _Stamp:
    """What one `create_drawers` statement stamped (`graph.indexes.drawer_index`)."""

    epoch: str | None
    seq: int
    drawers: list[tuple[str, list[str], KnownDrawer]]
    closed: list[str]


def _parts(items: list[PreparedDrawer]) -> Iterator[list[PreparedDrawer]]:
    """Runs of items in which no name repeats in a room (see the module's docstring)."""
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


def _write_part(
    tx: Tx,
    part: list[PreparedDrawer],
    policy: DedupPolicy,
    supersede: bool,
    dialect: Dialect,
    memory: DrawerIndex | None,
    stamped: list["_Stamp"],
) -> list[ItemOutcome]:
    if memory is not None:
        found = _read_chosen(tx, part, memory)
    else:
        found = _read_candidates(tx, part, policy.enabled, dialect)
    outcomes: list[ItemOutcome] = []
    stored: list[_Stored] = []
    closing: list[dict[str, str]] = []
    links: list[dict[str, object]] = []
    for item in part:
        outcome = _decide(item, found[item.index], stored, closing, policy, supersede)
        outcomes.append(outcome)
        if isinstance(outcome, WriteOutcome) and outcome.created:
            stored.append(_Stored(item, outcome.drawer))
            if outcome.superseded is not None:
                closing.append({"id": outcome.superseded, "now": outcome.drawer.created_at})
            links.extend(
                {"from": outcome.drawer.id, "to": entry.drawer, "evidence": link_evidence(entry)}
                for entry in outcome.similar
            )
    if stored:
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
            links=links,
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
    return outcomes


def _read_chosen(tx: Tx, part: list[PreparedDrawer], memory: DrawerIndex) -> dict[int, _Found]:
    """`_read_candidates` with each item's word pairs and bands looked up in memory: the
    hash and fingerprint lookups, the chosen drawers, the name holders of every item and the
    drawer sequence in one round trip (`drawer_batch_candidates_by_ids`; another per item only
    when closed or hidden drawers left a branch short: `graph.drawers.candidates.settle`). When the
    sequence stands elsewhere than the index stood for the choice, the index takes in what it
    had not seen and the part is chosen and read again (`SequencedIndex.catch_up_to`): the
    rare path, another writer's."""
    params = {item.index: by_ids_params(item.new, item.text) for item in part}
    read = _ChosenRead.of(tx, part, memory, params)
    if memory.catch_up_to(tx, read.counter, read.seen):
        read = _ChosenRead.of(tx, part, memory, params)
    for item in part:
        entry = read.found[item.index]
        first = read.current.comparable(item.new, read.asked[item.index])
        more = chosen_reader(tx, params[item.index], item.new, memory.known)
        whole = dict(entry.candidates)
        for candidate in settle(read.choices[item.index], first, more, whole):
            entry.candidates.setdefault(candidate.id, candidate)
        entry.holders.sort(key=lambda d: (d.created_at, d.id))
    return read.found


@dataclass
class _ChosenRead:
    """A part's choice from the index and what one `drawer_batch_candidates_by_ids` gave."""

    choices: dict[int, Choice]
    asked: dict[int, list[str]]
    """Each item's chosen drawers read in this round trip (`first_ids`)."""
    current: CurrentChosen
    found: dict[int, _Found]
    counter: Counter
    """Where the drawer sequence stood (no node yet: none and 0)."""
    seen: Counter
    """Where the index stood for the choice (`SequencedIndex.position`, read first): a counter
    found anywhere else means the choice may miss a drawer, even one taken in since."""

    @classmethod
    def of(
        cls,
        tx: Tx,
        part: list[PreparedDrawer],
        memory: DrawerIndex,
        params: dict[int, dict[str, Any]],
    ) -> "_ChosenRead":
        writes = [Probes(item.anchors, item.bands, item.lengths) for item in part]
        seen = memory.position()
        choices = {
            item.index: choice
            for item, choice in zip(part, memory.choose_all(writes, MEMORY_LIMITS), strict=True)
        }
        asked = {index: first_ids(choice) for index, choice in choices.items()}
        probes = [
            {"item": i, **{k: v for k, v in p.items() if k != "exact_limit"}}
            for i, p in params.items()
        ]
        named = [
            {"item": i.index, "wing": i.new.wing, "room": i.new.room, "name": i.new.name}
            for i in part
            if i.new.name is not None
        ]
        current = CurrentChosen(
            memory.known, list(dict.fromkeys(itertools.chain.from_iterable(asked.values())))
        )
        rows = tx.run(
            "drawer_batch_candidates_by_ids",
            probes=probes,
            **current.asked,
            named=named,
            exact_limit=EXACT_LOOKUP_LIMIT,
        )
        found = {item.index: _Found({}, []) for item in part}
        counter = Counter(None, 0)
        for row in rows:
            if row["via"] == "seq":
                counter = Counter.of(row["drawer"])
            elif not current.take(row):
                _collect(found[int(row["item"])], row)
        return cls(choices, asked, current, found, counter, seen)


def _read_candidates(
    tx: Tx, part: list[PreparedDrawer], enabled: bool, dialect: Dialect
) -> dict[int, _Found]:
    """Every item's candidates (when dedup is on) and name holders. The holders, and on Neo4j
    the candidates too, come in one round trip (`drawer_batch_candidates`); on FalkorDB the
    candidates come item by item with the statement of one write: in a room of 25 k it
    answered the one statement for 25 items in two to five times the database time of the 25
    statements (its rows carry each probe's terms through every step), and at 100 k in as
    much (design §4.4)."""
    found = {item.index: _Found({}, []) for item in part}
    named = [
        {"item": i.index, "wing": i.new.wing, "room": i.new.room, "name": i.new.name}
        for i in part
        if i.new.name is not None
    ]
    one_statement = enabled and dialect != "falkordb"
    if one_statement or named:
        rows = tx.run(
            "drawer_batch_candidates",
            probes=[item.probe() for item in part] if one_statement else [],
            named=named,
            **CANDIDATE_LIMITS,
        )
        for row in rows:
            _collect(found[int(row["item"])], row)
    if enabled and not one_statement:
        for item in part:
            for row in tx.run("drawer_candidates", **item.single_probe()):
                _collect(found[item.index], row)
    for entry in found.values():
        entry.holders.sort(key=lambda d: (d.created_at, d.id))
    return found


def _collect(entry: _Found, row: Row) -> None:
    props = row["drawer"]
    if row["via"] == "name":
        entry.holders.append(Drawer.from_props(props))
        return
    whole = Drawer.from_props(props) if row["via"] in ("hash", "fingerprint") else None
    known = entry.candidates.get(props["id"])
    if known is None or (known.drawer is None and whole is not None):
        norm_len = int(props.get("norm_len") or 0)
        entry.candidates[props["id"]] = Candidate(props["id"], props["content"], norm_len, whole)


def _decide(
    item: PreparedDrawer,
    found: _Found,
    stored: list[_Stored],
    closing: list[dict[str, str]],
    policy: DedupPolicy,
    supersede: bool,
) -> ItemOutcome:
    """One item, decided as `graph.drawers.palace.write_drawer` decides it after the earlier
    ones."""
    new = item.new
    holder = found.holders[0] if new.name is not None and found.holders else None
    try:
        same = same_named(new, holder, supersede)
    except DrawerNameTaken as taken:
        return taken
    if isinstance(same, WriteOutcome):
        return same
    replaced = same
    closed = {c["id"] for c in closing} | ({replaced.id} if replaced else set())
    likenesses: list[Likeness] = []
    if policy.enabled:
        likenesses_or_copy = _likenesses(item, found, stored, closed, policy.near_threshold)
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
    found: _Found,
    stored: list[_Stored],
    closed: set[str],
    threshold: float,
) -> list[Likeness] | Drawer:
    """The links of a new item, or the drawer an unnamed exact copy returns."""
    text = item.text
    from_room = [c for c in found.candidates.values() if c.id not in closed]
    from_batch = [s for s in stored if s.drawer.id not in closed and item.finds(s)]
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
