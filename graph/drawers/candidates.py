"""The drawers a write is compared with (design §6): read through the database's indexes
(`read_candidates`), or chosen by the in-memory index and read by id (`chosen_candidates`), or
known to the service already and read not at all (`known_candidates`).

A batch (`graph.drawers.drawer_batch`) reads its items' candidates with its own statements but
ranks and caps them with the same pieces (`first_ids`, `settle`, `CurrentChosen`), so one write
and one item of a batch see the same drawers.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from castlegraph.graph.backends.store import Row, Tx
from castlegraph.graph.drawers.drawer_props import joined
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.indexes.drawer_index import Choice, DrawerIndex, Limits
from castlegraph.graph.indexes.known_drawers import KnownDrawer, KnownDrawers
from castlegraph.graph.indexes.sequenced_index import Counter
from castlegraph.graph.records import Drawer
from castlegraph.resolver.bounded_cache import MIB, byte_lru
from castlegraph.resolver.drawers import DrawerText, PreparedText
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


def read_candidates(tx: Tx, new: NewDrawer, prepared: PreparedText) -> list[Candidate]:
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


def chosen_candidates(
    tx: Tx, new: NewDrawer, prepared: PreparedText, lookup: Lookup
) -> list[Candidate]:
    """What `read_candidates` finds, the word pairs and bands looked up in memory (`lookup`): the
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


def known_candidates(
    tx: Tx, new: NewDrawer, prepared: PreparedText, lookup: Lookup
) -> list[Candidate] | None:
    """What `chosen_candidates` finds but the same-hash and same-fingerprint drawers, when
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
        start = 0
        # The ranked ids a window at a time, as one slice: the index turns its rows into ids
        # only as they are read, and one id at a time cost a batch's item ~10 % of its time.
        while taken < TERM_CANDIDATES:
            window = ranked[start : start + TERM_CANDIDATES]
            if not window:
                break
            for place, drawer_id in enumerate(window):
                if taken == TERM_CANDIDATES:
                    break
                if drawer_id not in asked:
                    ids = [i for i in window[place:] if i not in asked]
                    ids += [
                        i
                        for i in ranked[start + len(window) : start + place + TERM_CANDIDATES]
                        if i not in asked
                    ]
                    asked.update(ids)
                    found.update(more(ids))
                candidate = found.get(drawer_id)
                if candidate is not None:
                    taken += 1
                    if drawer_id not in whole:
                        chosen.setdefault(drawer_id, candidate)
            start += len(window)
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


@byte_lru(CANDIDATE_TEXT_BYTES)
def _normal_form(content: str) -> tuple[str, str | None, str]:
    """`DrawerText.of` as a tuple of strings, which the cache can weigh."""
    text = DrawerText.of(content)
    return text.content_hash, text.fingerprint, text.normalized


def candidate_text(content: str) -> DrawerText:
    """A candidate's normal form, from the cache when it was a candidate lately."""
    return DrawerText(*_normal_form(content))


def await_candidates(memory: DrawerIndex | None, policy: DedupPolicy) -> None:
    """Before a write unit: where the database keeps no term index while `memory` builds
    (FalkorDB), wait for it, up to its bound (`SequencedIndex.await_ready`; design §5.4)."""
    if memory is not None and policy.enabled:
        memory.await_ready()
