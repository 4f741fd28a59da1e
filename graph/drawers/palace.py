"""Use cases of the palace: write, supersede, read, list and delete drawers (design §4).

Each write reads its candidates from indexes, lets `resolver.drawers` name the likenesses and
makes every change in one final statement (`create_drawer`), so a failure leaves nothing half
written on either backend. Where the service knows every candidate the in-memory index chose,
the write reads nothing: its statement checks that nothing changed since (`_store_unread`).
"""

import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from castlegraph.graph.backends.queries import Dialect
from castlegraph.graph.backends.store import GraphStore, Row, Tx
from castlegraph.graph.clock import utc_now
from castlegraph.graph.cursors import decode_cursor, encode_cursor
from castlegraph.graph.drawers.visibility import DIARY_KIND, visible
from castlegraph.graph.errors import DrawerNameTaken, DrawerNotFound, DrawerSuperseded
from castlegraph.graph.indexes.drawer_index import Choice, DrawerIndex, Limits
from castlegraph.graph.indexes.known_drawers import KnownDrawer, KnownDrawers
from castlegraph.graph.indexes.sequenced_index import Counter
from castlegraph.graph.locks import PENDING_PAIRS
from castlegraph.graph.records import ORIGIN_PREFIX, Drawer, SimilarDrawer, WriteOutcome
from castlegraph.resolver.bounded_cache import MIB, byte_lru
from castlegraph.resolver.drawers import (
    TERMS_SCHEME,
    DrawerText,
    Likeness,
    PreparedText,
    compare,
    index_terms,
    may_be_near,
    prepare_text,
    strongest,
)
from castlegraph.resolver.similarity import OSA_MAX_LENGTH

EXACT_LOOKUP_LIMIT = 20
"""Same-hash and same-fingerprint candidates read per write (copies beyond are not linked)."""

TERM_CANDIDATES = 20
"""Best shared-terms candidates compared per write."""

TERM_POSTINGS = 32
"""Drawers read per term at most: a word pair common to the whole room costs no more than this."""

RARE_TERMS = 8
"""Terms whose drawers are compared: those with the fewest drawers in the room. A near copy
shares its original's rare word pairs, and a rare pair's drawers all fit under the cap above."""

CANDIDATE_TEXT_BYTES = 16 * MIB
"""Normal forms of candidates kept between writes: a room's near copies cluster, so the same
drawers come back as candidates of write after write (a checkpoint of 1,000 items into a room
of 10 k normalised ~21 candidates per item, most of them seen before)."""

NO_FINGERPRINT = ""
"""Looked up when a text has no fingerprint: stored fingerprints are never empty, and a
lookup of null would be planned as a scan of every drawer on FalkorDB."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A drawer a new one is compared with, by its content or, where the service knew the
    drawer already, its normal form (`graph.indexes.known_drawers`); `drawer` is whole when it came
    by hash or fingerprint (it may be the exact copy the write returns)."""

    id: str
    content: str | DrawerText
    norm_len: int
    drawer: Drawer | None

    @property
    def text(self) -> DrawerText:
        """Its normal form: known, or computed from its content (`candidate_text`)."""
        if isinstance(self.content, DrawerText):
            return self.content
        return candidate_text(self.content)


EXCERPT_LENGTH = 60


@dataclass(frozen=True, slots=True)
class DedupPolicy:
    enabled: bool = True
    near_threshold: float = 0.9


@dataclass(frozen=True, slots=True)
class NewDrawer:
    wing: str
    room: str
    content: str
    name: str | None = None
    kind: str = "manual"
    agent: str | None = None
    source_uri: str | None = None
    drawer_id: str | None = None
    compare_same_agent_only: bool = False
    origin: dict[str, Any] = field(default_factory=dict)
    viewer: str | None = None
    """The agent whose token asked for the write: it is compared only with drawers that agent
    may see (`graph.drawers.visibility`), so no answer or link can name another agent's diary
    entry."""

    @property
    def compared_agent(self) -> str | None:
        """The agent whose diary entries alone the write compares with, if only its own: a
        diary entry's identity is never another drawer naming that agent (design §8.1)."""
        return self.agent if self.compare_same_agent_only else None

    def compares_with(self, wing: str, room: str, agent: str | None, kind: str | None) -> bool:
        """Whether the write may compare with a drawer of this room, agent and kind: of its own
        room, one of its agent's diary entries where it compares with its own only, and visible
        to its viewer. The candidate statements filter by this rule; a batch applies it to
        drawers read without it (`graph.drawers.drawer_batch`)."""
        return (
            wing == self.wing
            and room == self.room
            and (self.compared_agent is None or (agent, kind) == (self.compared_agent, DIARY_KIND))
            and visible(kind or "", agent, self.viewer)
        )


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
    stored = _Sequenced()
    await_candidates(memory, policy)

    def work(tx: Tx) -> WriteOutcome:
        tx.lock(f"room\x1f{new.wing}\x1f{new.room}")
        holder: Drawer | None = None
        if new.name is not None:
            rows = tx.run("current_drawers_by_name", wing=new.wing, room=new.room, name=new.name)
            holder = Drawer.from_props(rows[0]["drawer"]) if rows else None
        same = same_named(new, holder, supersede)
        if isinstance(same, WriteOutcome):
            return same
        return _store(tx, new, policy, same, store.dialect, memory, stored)

    return stored.done(memory, store.write(work, use_case="write_drawer"))


def await_candidates(memory: DrawerIndex | None, policy: DedupPolicy) -> None:
    """Before a write unit: where the database keeps no term index while `memory` builds
    (FalkorDB), wait for it, up to its bound (`SequencedIndex.await_ready`; design §5.4)."""
    if memory is not None and policy.enabled:
        memory.await_ready()


def same_named(
    new: NewDrawer, holder: Drawer | None, supersede: bool
) -> Drawer | WriteOutcome | None:
    """What the current holder of the new drawer's name makes of the write: nothing (None), the
    holder itself (same content), or the drawer it replaces (`supersede`); else the name is
    taken. A holder the writer may not see keeps the name unique but stays unnamed."""
    if holder is None:
        return None
    if not visible(holder.kind, holder.agent, new.viewer):
        raise DrawerNameTaken(new.wing, new.room, new.name or "", None)
    if holder.content == new.content:
        return WriteOutcome(created=False, drawer=holder, similar=[])
    if not supersede:
        raise DrawerNameTaken(new.wing, new.room, new.name or "", holder.id)
    return holder


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
    stored = _Sequenced()
    await_candidates(memory, policy)

    def work(tx: Tx) -> WriteOutcome:
        old = _get(tx, drawer_id, viewer)
        tx.lock(f"room\x1f{old.wing}\x1f{old.room}")
        old = _get(tx, drawer_id)  # read again under the lock
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
        return _store(tx, new, policy, old, store.dialect, memory, stored)

    return stored.done(memory, store.write(work, use_case="supersede_drawer"))


@dataclass
class _Sequenced:
    """What a write unit's create statement stamped, for the in-memory index once committed."""

    epoch: str | None = None
    seq: int = 0
    drawers: list[tuple[str, list[str], KnownDrawer]] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)

    def stamped(self, rows: list[Row]) -> None:
        self.epoch, self.seq = rows[0]["epoch"], int(rows[0]["seq"])

    def done(self, memory: DrawerIndex | None, outcome: WriteOutcome) -> WriteOutcome:
        if memory is not None and outcome.created and self.seq:
            memory.written(self.epoch, self.seq, self.drawers, self.closed)
        return outcome


def _store(
    tx: Tx,
    new: NewDrawer,
    policy: DedupPolicy,
    replaced: Drawer | None,
    dialect: Dialect,
    memory: DrawerIndex | None,
    stored: _Sequenced,
) -> WriteOutcome:
    prepared = prepare_text(new.wing, new.room, new.content, policy.near_threshold)
    lookup = None
    if policy.enabled and memory is not None and memory.ready:
        lookup = Lookup.of(memory, prepared)
        if replaced is None:
            outcome = _store_unread(tx, new, policy, prepared, lookup, dialect, stored)
            if outcome is not None:
                return outcome
    text = prepared.text
    likenesses: list[Likeness] = []
    if policy.enabled:
        if lookup is not None:
            found = _chosen_candidates(tx, new, prepared, lookup)
        else:
            found = _candidates(tx, new, prepared)
        candidates = [c for c in found if not replaced or c.id != replaced.id]
        exact = oldest_exact_copy(text, candidates)
        if exact is not None and new.name is None:
            return WriteOutcome(created=False, drawer=exact, similar=[])
        likenesses = likenesses_among(text, candidates, policy.near_threshold)
    creation = _Creation.of(new, prepared, likenesses, replaced, policy, dialect)
    rows = tx.run("create_drawer_replacing" if replaced else "create_drawer", **creation.params)
    return creation.written(rows, stored)


def _store_unread(
    tx: Tx,
    new: NewDrawer,
    policy: DedupPolicy,
    prepared: PreparedText,
    lookup: "Lookup",
    dialect: Dialect,
    stored: _Sequenced,
) -> WriteOutcome | None:
    """A write decided without reading the database, in one round trip (design §4.5): when
    the service knows every drawer the in-memory index chose (`_known_candidates`), it compares
    with them and sends `create_drawer_unless_moved`, which creates the drawer only if the
    drawer sequence still stands where the index stood for the choice (`Lookup`) and no drawer
    of the room has the same content hash or fingerprint. None when the service does not know
    them all, or the statement wrote nothing: the write then reads its candidates
    (`_chosen_candidates`)."""
    seen = lookup.seen
    if seen.epoch is None:
        return None
    candidates = _known_candidates(tx, new, prepared, lookup)
    if candidates is None:
        return None
    likenesses = likenesses_among(prepared.text, candidates, policy.near_threshold)
    creation = _Creation.of(new, prepared, likenesses, None, policy, dialect)
    rows = tx.run(
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


@dataclass(frozen=True, slots=True)
class _Creation:
    """The drawer a write stores, the links it answers with and its statement's parameters."""

    drawer: Drawer
    prepared: PreparedText
    similar: list[SimilarDrawer]
    replaced: Drawer | None
    params: dict[str, Any]

    @classmethod
    def of(
        cls,
        new: NewDrawer,
        prepared: PreparedText,
        likenesses: Sequence[Likeness],
        replaced: Drawer | None,
        policy: DedupPolicy,
        dialect: Dialect,
    ) -> "_Creation":
        now = utc_now()
        drawer = new_drawer_record(new, prepared.text, now, replaced)
        similar = [similar_entry(link, policy.near_threshold, now) for link in likenesses]
        links = [{"other": entry.drawer, "evidence": link_evidence(entry)} for entry in similar]
        # Two statements, not one with an optional match: FalkorDB plans `{id: null}` as a scan.
        replacing = {"supersedes": replaced.id, "now": now} if replaced else {}
        stored_terms = prepared.terms.stored
        params = {
            **replacing,
            "wing": new.wing,
            "room": new.room,
            "props": drawer_write_props(drawer, stored_terms, dialect),
            "terms": joined(stored_terms),
            "links": links,
        }
        return cls(drawer, prepared, similar, replaced, params)

    def written(self, rows: list[Row], stored: _Sequenced) -> WriteOutcome:
        """The outcome, once its statement created the drawer (`rows`: what it returned)."""
        drawer, replaced = self.drawer, self.replaced
        stored.stamped(rows)
        stored.drawers = [
            (drawer.id, self.prepared.terms.stored, KnownDrawer.of(drawer, self.prepared.text))
        ]
        stored.closed = [replaced.id] if replaced else []
        return WriteOutcome(
            created=True,
            drawer=drawer,
            similar=self.similar,
            superseded=replaced.id if replaced else None,
        )


def _candidates(tx: Tx, new: NewDrawer, prepared: PreparedText) -> list[Candidate]:
    """Current drawers of the room found through the hash, fingerprint and term indexes.

    One round trip: same-hash and same-fingerprint drawers come whole (an exact copy is
    returned as it is), the shared-terms ones (word pairs, then 5-gram bands) as id and
    content, all a comparison needs. Only drawers the writer's agent may see are candidates
    (`NewDrawer.viewer`).
    """
    terms = prepared.terms
    rows = tx.run(
        "drawer_candidates",
        **candidate_params(new, prepared.text, terms.anchors, terms.bands, prepared.lengths),
    )
    unique: dict[str, Candidate] = {}
    for row in rows:
        props = row["drawer"]
        if props["id"] not in unique:
            whole = Drawer.from_props(props) if row["via"] in ("hash", "fingerprint") else None
            norm_len = int(props.get("norm_len") or 0)
            unique[props["id"]] = Candidate(props["id"], props["content"], norm_len, whole)
    return list(unique.values())


@dataclass(frozen=True, slots=True)
class Lookup:
    """A write's choice from the in-memory index (`memory`), where the index stood when it was
    made (`SequencedIndex.position`, read first: a counter found anywhere else means the
    choice may miss a drawer, even one the index took in since, another unit's own) and the
    drawers of its first read (`first_ids`) split into those the service knows and the others,
    once, whether the write then reads or not."""

    memory: DrawerIndex
    seen: Counter
    choice: Choice
    first: "CurrentChosen"

    @classmethod
    def of(cls, memory: DrawerIndex, prepared: PreparedText) -> "Lookup":
        seen = memory.position()
        terms = prepared.terms
        choice = memory.choose(terms.anchors, terms.bands, prepared.lengths, MEMORY_LIMITS)
        return cls(memory, seen, choice, CurrentChosen(memory.known, first_ids(choice)))


def _chosen_candidates(
    tx: Tx, new: NewDrawer, prepared: PreparedText, lookup: Lookup
) -> list[Candidate]:
    """What `_candidates` finds, the word pairs and bands looked up in memory (`lookup`): the
    database reads the chosen drawers by id with the hash and fingerprint lookups and the
    drawer sequence, in one round trip (another only when closed or hidden drawers left a
    branch short: `settle`). When the sequence stands elsewhere than the index stood for the
    choice, the index catches up and chooses again (`SequencedIndex.catch_up_to`): the rare
    path, another writer's."""
    memory, params = lookup.memory, by_ids_params(new, prepared.text)
    whole, first, counter = _read_chosen(tx, params, lookup.first, new)
    # Every earlier write of the room committed before this unit took its lock, so once the
    # index holds what this read's counter shows, its choice is exact, whatever a writer of
    # another room stamps meanwhile: a second read need not look at the counter again.
    if memory.catch_up_to(tx, counter, lookup.seen):
        lookup = Lookup.of(memory, prepared)
        whole, first, _ = _read_chosen(tx, params, lookup.first, new)
    more = chosen_reader(tx, params, new, memory.known)
    return [*whole.values(), *settle(lookup.choice, first, more, whole)]


def _known_candidates(
    tx: Tx, new: NewDrawer, prepared: PreparedText, lookup: Lookup
) -> list[Candidate] | None:
    """What `_chosen_candidates` finds but the same-hash and same-fingerprint drawers, when
    the service knows each drawer of its first read: then nothing is read, but where closed or
    hidden drawers leave a branch short (`settle`). None when it does not know them all.
    Exact only while the drawer sequence stands where the index stood for the choice
    (`Lookup`), which the write's statement checks."""
    if lookup.first.asked["ids"]:
        return None
    more = chosen_reader(tx, by_ids_params(new, prepared.text), new, lookup.memory.known)
    return settle(lookup.choice, lookup.first.comparable(new), more, {})


def _read_chosen(
    tx: Tx, params: dict[str, Any], current: "CurrentChosen", new: NewDrawer
) -> tuple[dict[str, Candidate], dict[str, Candidate], Counter]:
    """One `drawer_candidates_by_ids` read of a write (`current`: its first read's drawers,
    known or to read): the drawers that came whole, the chosen ones it may compare with and
    where the drawer sequence stands (no node yet: none and 0)."""
    whole: dict[str, Candidate] = {}
    counter = Counter(None, 0)
    for row in tx.run("drawer_candidates_by_ids", **params, **current.asked):
        if row["via"] == "seq":
            counter = Counter.of(row["drawer"])
        elif not current.take(row):
            gather(row, whole)
    return whole, current.comparable(new), counter


def chosen_reader(
    tx: Tx, params: dict[str, Any], new: NewDrawer, known: KnownDrawers
) -> Callable[[list[str]], dict[str, Candidate]]:
    """Reads more chosen drawers of one write (`drawer_candidates_by_ids` with `params`, from
    `by_ids_params`), for `settle` when its first read left a branch short."""

    def more(ids: list[str]) -> dict[str, Candidate]:
        current = CurrentChosen(known, ids)
        for row in tx.run("drawer_candidates_by_ids", **params, **current.asked):
            current.take(row)
        return current.comparable(new)

    return more


class CurrentChosen:
    """The chosen drawers of a by-ids read (`drawer_candidates_by_ids`, and a batch's
    `drawer_batch_candidates_by_ids`): those the service knows (`KnownDrawers`) are current
    as they are (the index, caught up, has them live: `graph.indexes.drawer_index`), the others are
    read whole (`$ids`) and remembered. Which of them a write may compare with is decided here
    (`NewDrawer.compares_with`): the statements read each once, whoever asks."""

    def __init__(self, known: KnownDrawers, ids: Sequence[str]) -> None:
        self._known = known
        self._ids = ids
        unknown, self._current = known.split(ids)
        self.asked = {"ids": unknown}

    def take(self, row: Row) -> bool:
        """A row of the chosen drawers' branch, taken in; False for another branch's."""
        if row["via"] != "ids":
            return False
        drawer_id, drawer = KnownDrawer.read(row["drawer"])
        self._known.put(drawer_id, drawer)
        self._current[drawer_id] = drawer
        return True

    def comparable(self, new: NewDrawer, ids: Iterable[str] | None = None) -> dict[str, Candidate]:
        """The current ones among `ids` (all asked, by default) that `new` may compare with,
        in the order asked."""
        found: dict[str, Candidate] = {}
        for drawer_id in self._ids if ids is None else ids:
            drawer = self._current.get(drawer_id)
            if drawer is not None and new.compares_with(
                drawer.wing, drawer.room, drawer.agent, drawer.kind
            ):
                found[drawer_id] = Candidate(drawer_id, drawer.text, drawer.norm_len, None)
        return found


def by_ids_params(new: NewDrawer, text: DrawerText) -> dict[str, Any]:
    """The parameters of `drawer_candidates_by_ids` but the ids."""
    return {
        "content_hash": text.content_hash,
        "fingerprint": text.fingerprint or NO_FINGERPRINT,
        "wing": new.wing,
        "room": new.room,
        "agent": new.compared_agent,
        "viewer": new.viewer,
        "exact_limit": EXACT_LOOKUP_LIMIT,
    }


def first_ids(choice: Choice) -> list[str]:
    """The drawers read with a write's first round trip: each branch's best `TERM_CANDIDATES`."""
    return list(dict.fromkeys([*choice.terms[:TERM_CANDIDATES], *choice.bands[:TERM_CANDIDATES]]))


def gather(row: Row, whole: dict[str, Candidate]) -> None:
    """A whole drawer of `drawer_candidates_by_ids` (hash, fingerprint)."""
    props = row["drawer"]
    norm_len = int(props.get("norm_len") or 0)
    whole.setdefault(
        props["id"], Candidate(props["id"], props["content"], norm_len, Drawer.from_props(props))
    )


def settle(
    choice: Choice,
    first: dict[str, Candidate],
    more: Callable[[list[str]], dict[str, Candidate]],
    whole: dict[str, Candidate],
) -> list[Candidate]:
    """Each branch's best `TERM_CANDIDATES` among the drawers the database still has current
    and visible (`first` answers for `first_ids`), as `drawer_candidates` caps them after its
    filters: where the read left a branch short and it ranks more, the next are read (`more`)."""
    asked = set(first_ids(choice))
    found = dict(first)
    chosen: dict[str, Candidate] = {}
    for ranked in (choice.terms, choice.bands):
        taken = 0
        for place, drawer_id in enumerate(ranked):
            if taken == TERM_CANDIDATES:
                break
            if drawer_id not in asked:
                ids = [i for i in ranked[place : place + TERM_CANDIDATES] if i not in asked]
                asked.update(ids)
                found.update(more(ids))
            candidate = found.get(drawer_id)
            if candidate is not None:
                taken += 1
                if drawer_id not in whole:
                    chosen.setdefault(drawer_id, candidate)
    return list(chosen.values())


CANDIDATE_LIMITS: dict[str, int] = {
    "exact_limit": EXACT_LOOKUP_LIMIT,
    "per_term": TERM_POSTINGS,
    "rare_terms": RARE_TERMS,
    "limit": TERM_CANDIDATES,
    "any_len_above": OSA_MAX_LENGTH,
}
"""The caps of a candidate read, the same for every write (a batch passes them once)."""

MEMORY_LIMITS = Limits(TERM_POSTINGS, RARE_TERMS, TERM_CANDIDATES, OSA_MAX_LENGTH)
"""The same caps, for the in-memory index's choice (`graph.indexes.drawer_index`)."""


def probe_params(
    new: NewDrawer, text: DrawerText, anchors: list[str], bands: list[str], lengths: tuple[int, int]
) -> dict[str, Any]:
    """What one write asks the candidate indexes (`lengths`: `near_lengths`); a batch sends one
    of these per item."""
    return {
        "min_len": lengths[0],
        "max_len": lengths[1],
        "content_hash": text.content_hash,
        "fingerprint": text.fingerprint or NO_FINGERPRINT,
        "terms": joined(anchors),
        "bands": joined(bands),
        "wing": new.wing,
        "room": new.room,
        "agent": new.compared_agent,
        "viewer": new.viewer,
    }


def candidate_params(
    new: NewDrawer, text: DrawerText, anchors: list[str], bands: list[str], lengths: tuple[int, int]
) -> dict[str, Any]:
    """The parameters of `drawer_candidates` for one write."""
    return probe_params(new, text, anchors, bands, lengths) | CANDIDATE_LIMITS


def new_drawer_record(
    new: NewDrawer, text: DrawerText, now: str, replaced: Drawer | None
) -> Drawer:
    return Drawer(
        id=new.drawer_id or str(uuid.uuid4()),
        wing=new.wing,
        room=new.room,
        content=new.content,
        content_hash=text.content_hash,
        fingerprint=text.fingerprint,
        norm_len=len(text.normalized),
        kind=new.kind,
        created_at=now,
        name=new.name,
        agent=new.agent,
        source_uri=new.source_uri,
        valid_from=now,
        supersedes=replaced.id if replaced else None,
        origin=dict(new.origin),
    )


def drawer_index_props(wing: str, room: str, content: str, dialect: Dialect) -> dict[str, Any]:
    """The properties derived from a drawer's content (migrations 3 and 4 backfill them)."""
    text = DrawerText.of(content)
    props: dict[str, Any] = {
        "content_hash": text.content_hash,
        "norm_len": len(text.normalized),
        "excerpt": _excerpt(content),
        **_term_props(index_terms(wing, room, text.normalized), dialect),
    }
    if text.fingerprint is not None:
        props["fingerprint"] = text.fingerprint
    return props


def _term_props(terms: list[str], dialect: Dialect) -> dict[str, Any]:
    """The index terms (word pairs and bands) as FalkorDB's array index reads them; Neo4j,
    which cannot index list elements, also gets them as one string for its full-text index
    (FalkorDB does not: the string was a fifth of the cost of a write in a room of 100 k)."""
    props: dict[str, Any] = {"terms": terms, "terms_scheme": TERMS_SCHEME}
    if dialect == "neo4j":
        props["terms_text"] = " ".join(terms)
    return props


STORED_PROPERTIES = frozenset(
    {
        *("id", "wing", "room", "content", "content_hash", "fingerprint", "norm_len", "excerpt"),
        *("kind", "name", "agent", "source_uri", "created_at", "valid_from", "supersedes"),
        *(f"{ORIGIN_PREFIX}{key}" for key in ("document", "chunk", "revision", "root")),
        *("terms_scheme", "terms_text"),
    }
)
"""The properties a drawer is stored with (`drawer_write_props`), each named in the CREATE of
the statements that create one drawer: FalkorDB makes a statement that creates a node and
sets a node's property pay a cost that grows with the graph (`cypher/create_drawer.cypher`).
Provenance keys are those of mined chunks (`api.service.jobs.mining`)."""


def drawer_write_props(drawer: Drawer, terms: list[str], dialect: Dialect) -> dict[str, Any]:
    """The record's properties and those the indexes read, derived from its content, but its
    index terms themselves: the write statements take them `joined` and split them."""
    props = drawer.to_props()
    props.update(_term_props(terms, dialect))
    del props["terms"]
    props["excerpt"] = _excerpt(drawer.content)  # the caption Neo4j Browser shows
    unknown = props.keys() - STORED_PROPERTIES
    if unknown:  # a new field or provenance key the statements would drop without a word
        raise ValueError(f"no statement stores these drawer properties: {sorted(unknown)}")
    return props


def joined(terms: list[str]) -> str:
    """Index terms as one parameter, split by the statements: FalkorDB's client writes every
    parameter into the query text, quoting and escaping each string, and ~290 term strings a
    write (its probes and what it is stored under) cost it more than the one string they make
    (terms are hex digests: never a space, never empty)."""
    return " ".join(terms)


def _excerpt(content: str) -> str:
    flat = " ".join(content.split())
    return flat if len(flat) <= EXCERPT_LENGTH else flat[: EXCERPT_LENGTH - 1] + "…"


def oldest_exact_copy(text: DrawerText, candidates: Iterable[Candidate]) -> Drawer | None:
    """The oldest candidate with the same content hash (candidates that came whole)."""
    same = [
        c.drawer
        for c in candidates
        if c.drawer is not None and c.drawer.content_hash == text.content_hash
    ]
    return min(same, key=lambda d: (d.created_at, d.id)) if same else None


@byte_lru(CANDIDATE_TEXT_BYTES)
def _normal_form(content: str) -> tuple[str, str | None, str]:
    """`DrawerText.of` as a tuple of strings, which the cache can weigh."""
    text = DrawerText.of(content)
    return text.content_hash, text.fingerprint, text.normalized


def candidate_text(content: str) -> DrawerText:
    """A candidate's normal form, from the cache when it was a candidate lately."""
    return DrawerText(*_normal_form(content))


def likenesses_among(
    text: DrawerText, candidates: Iterable[Candidate], threshold: float
) -> list[Likeness]:
    """The links a new drawer earns with its candidates: each compared (a candidate that came
    whole always, one known by length only when the lengths allow a near copy)."""
    length = len(text.normalized)
    found = (
        compare(text, c.id, c.text, threshold)
        for c in candidates
        if c.drawer is not None or may_be_near(length, c.norm_len, threshold)
    )
    return strongest(link for link in found if link is not None)


def link_evidence(entry: SimilarDrawer) -> dict[str, Any]:
    """What a SIMILAR_TO edge carries: the evidence the write answered with."""
    return {
        "kind": entry.kind,
        "similarity": entry.similarity,
        "same_hash": entry.same_hash,
        "same_fingerprint": entry.same_fingerprint,
        "threshold": entry.threshold,
        "created_at": entry.created_at,
    }


def similar_entry(link: Likeness, threshold: float, now: str) -> SimilarDrawer:
    return SimilarDrawer(
        drawer=link.other_id,
        side="older",
        kind=link.kind,
        similarity=link.similarity,
        same_hash=link.same_hash,
        same_fingerprint=link.same_fingerprint,
        threshold=threshold,
        created_at=now,
    )


def _get(tx: Tx, drawer_id: str, viewer: str | None = None) -> Drawer:
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
