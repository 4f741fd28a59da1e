"""The entity candidate index held in the service's memory, kept exact by a sequence (design §5.4).

The keys the database's search probed (`stored_key_set` of `resolver.entity_search_keys`) live
in the service as hashes in sorted numpy arrays (`graph.indexes.key_segments`): a lookup is a
vectorised binary search, and the entities it finds come from memory too
(`graph.indexes.row_spellings`). The database still holds the truth, keeps its own key index
(the fallback while this one loads, and the tests' reference) and takes one write per batch.
"""

import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from functools import partial

import numpy as np
from numpy.typing import NDArray

from castlegraph.graph.backends.queries import FIRST_ENTITY_CURSOR
from castlegraph.graph.backends.store import GraphStore, Row, Tx
from castlegraph.graph.indexes.key_segments import (
    BLOCK_BITS,
    KeyIndex,
    PairFilter,
    WantedKinds,
    key_hashes,
)
from castlegraph.graph.indexes.row_spellings import Record, RowSpellings
from castlegraph.graph.indexes.sequenced_index import SequencedIndex
from castlegraph.graph.records import Entity
from castlegraph.resolver import core as chosen_core
from castlegraph.resolver.entity_rules import compatible_kinds
from castlegraph.resolver.entity_search_keys import spellings_keys

SpelledHit = tuple[list[str], tuple[str, ...] | None, str | None, int]
"""An entity `EntityIndex.lookup_spelled` found: the probes that met it, its keys, its kind
(each None where not known) and its latest row."""
SpelledLookup = tuple[dict[str, SpelledHit], dict[str, list[str]]]
"""`EntityIndex.lookup_spelled`: the hits, and the mention keys behind each probe that hit."""

ENTITY_CACHE_SIZE = 10_000
"""Entities kept as objects once handed out (about 600 bytes each): building one from its row
costs a few microseconds, so only what a few batches reuse is kept; 100,000 were kept when each
was a read by id (60 MB at 1 M)."""
BUILD_PAGE = 2_000


@dataclass(frozen=True, slots=True)
class BuildStats:
    entities: int
    entries: int
    seconds: float


@dataclass(frozen=True, slots=True)
class _Respelling:
    """An entity a statement created or respelled, as the index takes it in."""

    id: str
    spellings: tuple[str, ...]
    """Its key, then its alias keys."""
    kind: str | None
    record: Record | None
    unspelled: bool = False
    """It lost a spelling (an undone `same` verdict)."""


class EntityIndex(SequencedIndex):
    """The candidate index of one service instance: built once, then caught up per write unit.

    The protocol is `graph.indexes.sequenced_index`'s: every statement that creates an entity or
    changes its spellings (resolution, aliases, settled reviews, key migrations, bulk loads)
    advances `(:Meta {name: 'entity_seq'})` and stamps the entities it touched (`seq`, indexed). A
    write unit catches up after taking the locks of the kinds it meets (`catch_up`,
    `graph.entities.kind_locks`), so another instance's writes, an alias recorded through the API
    and a migration are all caught. Units of other kinds may commit after that catch-up: what they
    wrote is of kinds this unit never compares with, and the next catch-up takes it in. After its
    own statement commits, the unit adds what it wrote (`written`) when nothing else came in
    between (a unit that changed nothing adds nothing); a write that fails adds nothing.

    A respelled entity (a new alias, a lost one, a settled review) is added again under a new row
    that stores only the keys of the spellings its latest row did not have: its older rows keep
    answering for the older spellings, so an entity that collects a thousand aliases costs the keys
    of a thousand spellings, not half a million. Whatever row a probe meets, the entity is weighed
    and answered as its latest row holds it: the index remembers the latest row of each entity
    indexed under several since the build (`_latest`) and the entity of each older row
    (`_superseded`). That also covers the one case where an entity's keys shrink: an undone `same`
    verdict removes the alias it recorded (the statement marks the entity `unspelled`), and its
    older rows still hold the lost keys.

    A probe may meet another key's entries (`graph.indexes.key_segments`): that only over-fetches,
    as the rules measure every candidate's real distance and every entity within reach of a probe is
    found through its own keys anyway, so no decision changes.

    The entities found are built from the rows that keep them (`entities`; a row whose texts hold a
    separator keeps its keys only, and its entity is read by id), and the last `ENTITY_CACHE_SIZE`
    handed out are kept as objects: candidates recur from batch to batch. The sequence keeps rows
    and objects exact: a catch-up or a write adds the entities it stamped under new rows and drops
    their objects, and an object built or read before such a change is not kept (`cached` hands out
    a generation that `remember` checks).
    """

    counter_statement = "entity_seq"
    name = "entity"

    def __init__(self, block_bits: int = BLOCK_BITS) -> None:
        super().__init__()
        self._block_bits = block_bits
        """Rows a build gathers at a time (`graph.indexes.key_segments.Filler`; tests make it 2)."""
        self._keys, self._spellings = _empty()
        """Each row's keys, so a lookup can drop hits no rule can use before they are read;
        its kinds, so a long run of one key is kept by kind (`graph.indexes.kind_runs`)."""
        self._entities: OrderedDict[str, Entity] = OrderedDict()
        """An ordered dict, not a dict: taking a dict's first key walks the slots its earlier
        deletions left (15 ms a batch at 1 M entities, the cache full)."""
        self._generation = 0
        """Advances whenever entities may have changed: a read from before is not cached."""
        self._latest: dict[str, int] = {}
        """The latest row of each entity indexed under several rows since the build: a probe
        of an older spelling meets only an older row, whose spellings are stale."""
        self._superseded: dict[int, str] = {}
        """The entity of each row that a later row of it superseded (`_latest` has that one)."""

    @property
    def entries(self) -> int:
        return self._keys.entries

    @property
    def indexed(self) -> int:
        """Entities indexed: each has one row, and a row more per respelling it superseded."""
        return self._keys.rows - len(self._superseded)

    @property
    def nbytes(self) -> int:
        """What the arrays hold (keys, ids, spellings and records): the index's own memory,
        without the cached entity objects (`ENTITY_CACHE_SIZE`)."""
        return self._keys.nbytes + self._spellings.nbytes

    @property
    def examined(self) -> int:
        """Index entries the lookups read since the index was last built: what probes cost."""
        return self._keys.examined

    def build(
        self, store: GraphStore, stopping: Callable[[], bool] = lambda: False
    ) -> BuildStats | None:
        """Index every entity, page by page; `None` if `stopping` said so first.

        The counter is read before the first page: whatever changes after it carries a later
        value, so the first catch-up reads it even if a page saw it already (an entity added
        twice is answered once).
        """
        started = time.perf_counter()
        counter = store.read(self.counter, use_case="entity_index_counter")
        keys, spellings = _empty()
        filler = keys.filler(self._block_bits)
        after = FIRST_ENTITY_CURSOR[store.dialect]
        while True:
            if stopping():
                return None
            page = store.read(partial(_page, after), use_case="entity_index_build")
            if not page:
                break
            rows_spellings = [_spellings(r) for r in page]
            spelled = [spellings_keys(found, cached=False) for found in rows_spellings]
            counts = np.fromiter(map(len, spelled), dtype=np.int64, count=len(spelled))
            first_row = keys.rows
            for r in page:
                keys.row_for(r["id"])
            spellings.extend(rows_spellings, [r.get("kind") for r in page], _records(page))
            hashes = key_hashes([key for found in spelled for key in found])
            filler.append(hashes, np.repeat(np.arange(first_row, keys.rows), counts))
            after = page[-1]["cursor"]
        filler.close()
        del filler
        with self._lock:
            self._keys, self._spellings = keys, spellings
            self._latest, self._superseded = {}, {}
            self._built(counter)
        return BuildStats(keys.rows, keys.entries, time.perf_counter() - started)

    def _start_over(self) -> None:
        self._keys, self._spellings = _empty()
        self._entities.clear()
        self._latest, self._superseded = {}, {}
        self._generation += 1

    def _take_since(self, tx: Tx, after: int, upto: int) -> None:
        changed = tx.run("entities_since", after=after, upto=upto)
        self._take(
            [
                _Respelling(r["id"], _spellings(r), r.get("kind"), record, bool(r.get("unspelled")))
                for r, record in zip(changed, _records(changed), strict=True)
            ]
        )

    def written(self, epoch: str | None, seq: int, entities: Iterable[Entity]) -> None:
        """After a unit's statement committed: its own entities, if nothing came in between."""
        added = [
            _Respelling(
                e.view.id,
                (e.view.key, *e.view.alias_keys),
                e.view.kind,
                Record(e.view.name, e.view.aliases, e.created_at, e.same_as),
            )
            for e in entities
        ]
        self._take_written(epoch, seq, partial(self._take, added))

    def _take(self, added: list[_Respelling]) -> None:
        """Entities created or respelled, each under a new row that stores the keys of the
        spellings its latest row lacks (all of them for an entity not indexed yet). The
        latest rows are found before the new ones are added. Lock held."""
        latest = self._latest_rows_of(added)
        first = self._keys.rows
        self._spellings.extend(  # kinds first: the keys' segment keeps its long runs by them
            [a.spellings for a in added], [a.kind for a in added], [a.record for a in added]
        )
        self._keys.add([(a.id, self._new_keys(a.spellings, latest.get(a.id))) for a in added])
        for n, a in enumerate(added):
            before = latest.get(a.id)
            if before is not None:
                self._superseded[before] = a.id
            if before is not None or a.unspelled:
                self._latest[a.id] = first + n
        self._forget(a.id for a in added)

    def _latest_rows_of(self, added: list[_Respelling]) -> dict[str, int]:
        """The latest row of each of these entities that the index holds: from `_latest`, or
        for an entity under one row, the row that stores its name key (one lookup for all,
        each key asked for its entity's kind only, so a key that thousands of kinds share
        costs no more than its own kind's entities). Lock held."""
        found = {a.id: row for a in added if (row := self._latest.get(a.id)) is not None}
        codes: dict[str, set[int] | None] = {}
        for a in added:
            if a.id in found:
                continue
            if a.kind is None:  # of no known kind: any row may be its
                codes[a.spellings[0]] = None
            elif (code := self._spellings.code_of(a.kind)) is not None:  # else a new entity
                known = codes.setdefault(a.spellings[0], {0})
                if known is not None:
                    known.add(code)
        if not codes:
            return found

        def wanted(probes: list[str]) -> list[Collection[int] | None]:
            return [codes[probe] for probe in probes]

        rows = self._keys.lookup_rows(codes.keys(), wanted=wanted)
        for a in added:
            hit = rows.get(a.id)
            if a.id not in found and hit is not None:
                found[a.id] = hit[1]
        return found

    def _new_keys(self, spellings: tuple[str, ...], latest: int | None) -> set[str]:
        """The keys of the spellings that the entity's latest row (None: it has none) lacks:
        its older rows store the others. Lock held."""
        held = self._spellings.of(latest) if latest is not None else None
        return spellings_keys(spellings if held is None else set(spellings).difference(held))

    def _latest_rows(self, rows: dict[str, int]) -> dict[str, int]:
        """Each id's row as a lookup answered it, or its latest row if it has several."""
        latest = self._latest
        if not latest:
            return rows
        return {i: max(row, latest.get(i, row)) for i, row in rows.items()}

    def _latest_of(self, rows: NDArray[np.int64]) -> NDArray[np.int64]:
        """The latest row of each of `rows`' entities: `rows` themselves unless one was
        superseded (then one Python step a row). Lock held."""
        superseded, latest = self._superseded, self._latest
        if not superseded:
            return rows
        found = [
            row if (entity_id := superseded.get(row)) is None else latest[entity_id]
            for row in rows.tolist()
        ]
        return np.array(found, dtype=np.int64)

    def lookup(self, probes: Collection[str]) -> dict[str, list[str]]:
        """Entity id → the probes it stores, sorted, for every indexed entity that stores one."""
        with self._lock:
            return self._keys.lookup(probes)

    def lookup_rows(self, probes: Collection[str]) -> dict[str, tuple[list[str], int]]:
        """What `lookup` answers, each entity's probes in no particular order and with its
        latest row (for `entities`)."""
        with self._lock:
            found = self._keys.lookup_rows(probes)
            if not self._latest:
                return found
            rows = self._latest_rows({i: row for i, (_, row) in found.items()})
            return {i: (keys, rows[i]) for i, (keys, _) in found.items()}

    def lookup_spelled(
        self,
        needs: Mapping[str, Collection[str]],
        kinds: Mapping[str, Collection[str]] | None = None,
    ) -> SpelledLookup:
        """What `lookup` answers for the probes of every mention key in `needs` (key → its
        probes), each entity with its keys (name key, then alias keys) and its kind, each None
        where not known (`graph.indexes.row_spellings`), and its latest row; and, for each probe
        that hit, the mention keys that sent it.

        `kinds` (key → the kinds of its mentions; a key not in it wants every kind) narrows a
        probe that meets a long run of one key to the entities of kinds its keys' mentions are
        compared with (`graph.indexes.kind_runs`): those of other kinds are never read, however many
        share the key (design §8.1). Where a run is short, or every kind is wanted (a mention
        of kind `other`), every hit is answered and the caller drops the kinds it cannot use.

        Each (row, probe) pair is weighed before the hits are grouped by entity: where one
        mention key sent the probe and none of the row's keys may pair with it
        (`resolver.entity_pairs.may_pair`), the pair is dropped. At a million entities most
        pairs are of that kind, and one check each costs less than carrying them as hits.
        """
        sent: dict[str, list[str]] = {}
        decoded: dict[int, tuple[str, ...] | None] = {}
        with self._lock:
            spellings = self._spellings
            keep = _weighing(needs, spellings, sent, decoded, self._latest_of)
            wanted = _wanted_kinds(needs, kinds, spellings) if kinds is not None else None
            probes = set().union(*needs.values())
            found = self._keys.lookup_rows(probes, keep, wanted) if probes else {}
            rows = self._latest_rows({i: row for i, (_, row) in found.items()})
            hits = {
                entity_id: (keys, _decoded(spellings, decoded, row), spellings.kind_of(row), row)
                for entity_id, (keys, _) in found.items()
                for row in (rows[entity_id],)
            }
        return hits, sent

    def entities(self, rows: dict[str, int]) -> dict[str, Entity]:
        """The entities of these rows (id → its latest row, as a lookup answered it) that the
        index keeps whole: as the database holds them, the index being caught up. The others
        are not answered and must be read by id."""
        with self._lock:
            spellings = self._spellings
            found = {i: spellings.entity(row, i) for i, row in rows.items()}
            return {i: entity for i, entity in found.items() if entity is not None}

    def kept_unsettled(self, rows: Mapping[str, int]) -> set[str]:
        """The ids among `rows` (id → its latest row) whose rows keep them whole and name no
        one they were settled as the same as (`RowSpellings.keeps_unsettled`)."""
        with self._lock:
            keeps = self._spellings.keeps_unsettled
            return {entity_id for entity_id, row in rows.items() if keeps(row)}

    def cached(self, ids: Iterable[str]) -> tuple[dict[str, Entity], int]:
        """The entities of `ids` read before and unchanged since, and the generation to hand
        `remember` with what is read now."""
        with self._lock:
            entities = self._entities
            return {i: e for i in ids if (e := entities.get(i)) is not None}, self._generation

    def remember(self, read: Iterable[Entity], generation: int) -> None:
        """Keep entities read by id, unless something changed since `cached` (the read may
        predate it); the oldest go first past `ENTITY_CACHE_SIZE`."""
        with self._lock:
            if generation != self._generation:
                return
            entities = self._entities
            for entity in read:
                entities[entity.view.id] = entity
            while len(entities) > ENTITY_CACHE_SIZE:
                entities.popitem(last=False)

    def _forget(self, ids: Iterable[str]) -> None:
        """Entities respelled or settled (or new): their cached reads are stale. Lock held."""
        for entity_id in ids:
            self._entities.pop(entity_id, None)
        self._generation += 1


def _empty() -> tuple[KeyIndex, RowSpellings]:
    """An empty index: its keys know each row's kind from its spellings."""
    spellings = RowSpellings()
    return KeyIndex(spellings.kind_codes), spellings


def _wanted_kinds(
    needs: Mapping[str, Collection[str]],
    kinds: Mapping[str, Collection[str]],
    spellings: RowSpellings,
) -> WantedKinds:
    """For probes that met a long run: the kind codes of the entities that some mention of a
    key that sent the probe is compared with (`compatible_kinds`), with 0 (rows of unknown
    kind may be any), or None where one of them is compared with every kind."""

    by_key: dict[str, frozenset[int] | None] = {}

    def codes_of(key: str) -> frozenset[int] | None:
        """The codes one key's mentions want, once per key (a key may have a thousand kinds)."""
        if key not in by_key:
            compatible = compatible_kinds(kinds.get(key))
            codes = None if compatible is None else map(spellings.code_of, compatible)
            by_key[key] = None if codes is None else frozenset(c for c in codes if c is not None)
        return by_key[key]

    def wanted(probes: list[str]) -> list[Collection[int] | None]:
        sent = _senders(needs, set(probes))
        answer: list[Collection[int] | None] = []
        for probe in probes:
            codes = {0}
            for key in sent.get(probe, ()):
                of_key = codes_of(key)
                if of_key is None:
                    answer.append(None)
                    break
                codes |= of_key
            else:
                answer.append(codes)
        return answer

    return wanted


def _decoded(
    spellings: RowSpellings, decoded: dict[int, tuple[str, ...] | None], row: int
) -> tuple[str, ...] | None:
    """A row's keys: decoded by the lookup's weighing if it was hit, else now (the latest row
    of an entity that lost a spelling, `EntityIndex._latest`)."""
    return decoded[row] if row in decoded else spellings.of(row)


def _senders(needs: Mapping[str, Collection[str]], hit: set[str]) -> dict[str, list[str]]:
    """Probe → the mention keys that sent it (`needs`: key → its probes), for the probes that
    hit only: a batch sends tens of thousands of probes and hits a few thousand, so the map is
    built from the hits' side (one set operation per mention key, in C) instead of one Python
    step per probe sent."""
    sent: dict[str, list[str]] = {}
    for key, needed in needs.items():
        if not hit.isdisjoint(needed):
            for probe in hit.intersection(needed):
                sent.setdefault(probe, []).append(key)
    return sent


def _weighing(
    needs: Mapping[str, Collection[str]],
    spellings: RowSpellings,
    sent: dict[str, list[str]],
    decoded: dict[int, tuple[str, ...] | None],
    latest_rows: Callable[[NDArray[np.int64]], NDArray[np.int64]],
) -> PairFilter:
    """The pair filter of `EntityIndex.lookup_spelled`: a (row, probe) pair is kept unless the
    probe's one sender cannot pair with any of the keys of the row's entity, as its latest row
    holds them (`latest_rows`: an older row stores only the keys of older spellings). As it goes
    it fills `sent` (probe → the mention keys that sent it, for the probes that hit) and
    `decoded` (row → those keys, for the rows hit), which the caller reads after the lookup."""

    def keep(
        ordered: list[str], rows: NDArray[np.int64], positions: NDArray[np.intp]
    ) -> NDArray[np.bool_]:
        hit, pair_probe = np.unique(positions, return_inverse=True)
        hit_probes = list(map(ordered.__getitem__, hit.tolist()))
        sent.update(_senders(needs, set(hit_probes)))
        sender = [keys[0] if len(keys) == 1 else None for keys in map(sent.__getitem__, hit_probes)]
        hit_rows, pair_row = np.unique(rows, return_inverse=True)
        row_keys = spellings.of_rows(latest_rows(hit_rows))
        decoded.update(zip(hit_rows.tolist(), row_keys, strict=True))
        return chosen_core.may_use(sender, row_keys, pair_probe, pair_row)

    return keep


def _records(rows: list[Row]) -> list[Record | None]:
    """What each row keeps besides its keys (`graph.indexes.row_spellings.Record`)."""
    return [
        Record(r["name"], tuple(r.get("aliases") or ()), r.get("created_at", ""), r.get("same_as"))
        if r.get("name") is not None
        else None
        for r in rows
    ]


def _spellings(row: Row) -> tuple[str, ...]:
    """An entity's spelling keys, read as a row of its key and alias keys."""
    return (row["key"], *(row.get("alias_keys") or ()))


def _page(after: object, tx: Tx) -> list[Row]:
    return tx.run("entity_spellings_page", after=after, limit=BUILD_PAGE)
