"""What a drawer batch reads before deciding a part of its items: their candidates and name
holders, through the database's indexes (`read_batch_candidates`) or chosen by the in-memory
index and read by id (`read_batch_chosen`), ranked and capped as one write's
(`graph.drawers.candidates`).
"""

import itertools
from dataclasses import dataclass
from typing import Any

from castlegraph.graph.backends.queries import Dialect
from castlegraph.graph.backends.store import Row, Tx
from castlegraph.graph.drawers.batch_items import PreparedDrawer
from castlegraph.graph.drawers.candidates import (
    CANDIDATE_LIMITS,
    EXACT_LOOKUP_LIMIT,
    MEMORY_LIMITS,
    Candidate,
    CurrentChosen,
    by_ids_params,
    chosen_reader,
    first_ids,
    settle,
)
from castlegraph.graph.indexes.drawer_index import Choice, DrawerIndex, Probes
from castlegraph.graph.indexes.sequenced_index import Counter
from castlegraph.graph.records import Drawer


@dataclass
class Found:
    """What the batch's candidate read gave one item."""

    candidates: dict[str, Candidate]
    holders: list[Drawer]


def read_batch_chosen(
    tx: Tx, part: list[PreparedDrawer], memory: DrawerIndex, *, take_in: bool = True
) -> dict[int, Found]:
    """`read_batch_candidates` with each item's word pairs and bands looked up in memory: the
    hash and fingerprint lookups, the chosen drawers, the name holders of every item and the
    drawer sequence in one round trip (`drawer_batch_candidates_by_ids`; another per item only
    when closed or hidden drawers left a branch short: `graph.drawers.candidates.settle`). When the
    sequence stands elsewhere than the index stood for the choice, the index takes in what it
    had not seen and the part is chosen and read again (`SequencedIndex.catch_up_to`): the
    rare path, another writer's. Not with `take_in` false: a later part on Neo4j, whose
    sequence counts the unit's own uncommitted parts (`graph.drawers.drawer_batch`)."""
    params = {item.index: by_ids_params(item.new, item.text) for item in part}
    read = _ChosenRead.of(tx, part, memory, params)
    if take_in and memory.catch_up_to(tx, read.counter, read.seen):
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
    found: dict[int, Found]
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
        found = {item.index: Found({}, []) for item in part}
        counter = Counter(None, 0)
        for row in rows:
            if row["via"] == "seq":
                counter = Counter.of(row["drawer"])
            elif not current.take(row):
                _collect(found[int(row["item"])], row)
        return cls(choices, asked, current, found, counter, seen)


def read_batch_candidates(
    tx: Tx, part: list[PreparedDrawer], enabled: bool, dialect: Dialect
) -> dict[int, Found]:
    """Every item's candidates (when dedup is on) and name holders. The holders, and on Neo4j
    the candidates too, come in one round trip (`drawer_batch_candidates`); on FalkorDB the
    candidates come item by item with the statement of one write: in a room of 25 k it
    answered the one statement for 25 items in two to five times the database time of the 25
    statements (its rows carry each probe's terms through every step), and at 100 k in as
    much (design §4.4)."""
    found = {item.index: Found({}, []) for item in part}
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


def _collect(entry: Found, row: Row) -> None:
    props = row["drawer"]
    if row["via"] == "name":
        entry.holders.append(Drawer.from_props(props))
        return
    whole = Drawer.from_props(props) if row["via"] in ("hash", "fingerprint") else None
    known = entry.candidates.get(props["id"])
    if known is None or (known.drawer is None and whole is not None):
        norm_len = int(props.get("norm_len") or 0)
        entry.candidates[props["id"]] = Candidate(props["id"], props["content"], norm_len, whole)
