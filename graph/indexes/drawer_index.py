"""The drawer candidate index held in the service's memory, kept exact by a sequence (design §4.5).

The drawers' terms (`resolver.drawers.index_terms`, room-scoped hashes) live in the service as
packed entries (`graph.indexes.key_segments.KeyIndex`); a write looks its probes up in memory,
ranks the drawers they give exactly as `drawer_candidates` ranks them (`choose`), and the
database only reads the chosen drawers by id, with the content-hash and fingerprint lookups, in
one round trip (`drawer_candidates_by_ids`), except those it knows (`graph.indexes.known_drawers`).
"""

import time
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from types import ModuleType
from typing import overload

import numpy as np
from numpy.typing import NDArray

from castlegraph.graph.backends.queries import FIRST_ENTITY_CURSOR
from castlegraph.graph.backends.store import GraphStore, Row, Tx
from castlegraph.graph.indexes.key_segments import (
    SEGMENT_MAX_ENTRIES,
    KeyIndex,
    Rows,
    key_hashes,
)
from castlegraph.graph.indexes.known_drawers import KnownDrawer, KnownDrawers
from castlegraph.graph.indexes.recent_terms import RecentRows
from castlegraph.graph.indexes.sequenced_index import Counter, SequencedIndex
from castlegraph.resolver import core as chosen_core

BUILD_PAGE = 2_000
WARM_SPAN = 1_000
"""Values of the drawer sequence whose drawers one page of `DrawerIndex.warm` reads: 1,000
drawers written one by one, 25,000 written by checkpoint batches of 25."""


@dataclass(frozen=True, slots=True)
class BuildStats:
    drawers: int
    entries: int
    seconds: float
    nbytes: int


@dataclass(frozen=True, slots=True)
class Limits:
    """The caps of a candidate search: those of `drawer_candidates` (`graph.drawers.palace`)."""

    per_term: int
    rare_terms: int
    limit: int
    any_len_above: int


@dataclass(frozen=True, slots=True)
class Probes:
    """What one write looks up: its word pairs, its bands and the normal-form lengths that
    allow a near copy of it (`resolver.drawers.near_lengths`)."""

    anchors: Sequence[str]
    bands: Sequence[str]
    lengths: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Choice:
    """The drawers a write's probes give, best first per branch, before the database's read
    leaves out those closed, deleted or hidden from the writer (the branches' caps apply
    after that read: `graph.drawers.palace`)."""

    terms: Sequence[str]
    bands: Sequence[str]


class DrawerIndex(SequencedIndex):
    """The drawer candidate index of one service instance: built once, then caught up per write
    unit (design §4.5).

    The protocol is `graph.indexes.sequenced_index`'s: every statement that creates or closes a
    drawer (`create_drawer`, `create_drawer_replacing`, `create_drawers`, `retire_mined_chunks`)
    advances `(:Meta {name: 'drawer_seq'})-[:SEQUENCE]->()` and stamps those drawers (`seq`,
    indexed). A write unit catches up after taking its room's lock (`catch_up`). A single write
    reads the counter with its candidates (`catch_up_to`), and looks again only when it shows the
    counter elsewhere than the index stood for its choice (`position`, read before it). A write
    whose chosen drawers are all known reads nothing: its create statement writes only if the
    counter still stands at that position (`graph.drawers.palace._store_unread`). After its
    statement commits, the unit adds its own drawers (`written`) when nothing came in between;
    otherwise the next catch-up reads them.

    A closed drawer that the index learns of (by a catch-up, or this instance's own supersede,
    retire or delete) is dead: it no longer counts in any term's postings. A delete stamps nothing;
    it adds one to the counter's `deletes`. A unit that finds that count moved by a delete this
    instance did not make forgets every known drawer, so the read of the chosen drawers asks for
    each whole again, and leaves out the one deleted: it is never a candidate. It stays counted in
    the postings until a restart, where it can only make a term look one drawer more common than it
    is. A known drawer is therefore compared with as it is, without asking the database whether it
    is still current: the index has it live, so no close stamped before this unit's lock, and no
    delete counted, touched it.

    An entry keeps 34 bits of its term's hash, so about `entries / 2**34` drawers per probe are
    another term's: an over-fetch, which the rules measure away.
    """

    counter_statement = "drawer_seq"
    name = "drawer"

    def __init__(self) -> None:
        super().__init__()
        self._keys = KeyIndex()
        self._recent = RecentRows(self._keys)
        self._lengths = array("q")
        """Each row's normal-form length: the length filter runs before the ranking."""
        self._dead_rows = bytearray()
        """1 for each row whose drawer is closed or deleted: it no longer counts."""
        self.known = KnownDrawers()
        """The normal forms and places of drawers compared or written lately, by id: the
        database is not asked for them (`graph.indexes.known_drawers`)."""

    @property
    def entries(self) -> int:
        return self._keys.entries + self._recent.entries

    @property
    def nbytes(self) -> int:
        return self._keys.nbytes + self._lengths.itemsize * len(self._lengths)

    @property
    def indexed(self) -> int:
        """Drawers indexed and current: a closed or deleted drawer's row no longer counts."""
        return len(self._lengths) - self._dead_rows.count(1)

    def build(
        self, store: GraphStore, stopping: Callable[[], bool] = lambda: False
    ) -> BuildStats | None:
        """Index every current drawer by its stored terms, page by page; `None` if `stopping`
        said so first. The counter is read before the first page: whatever changes after it
        carries a later value, so the first catch-up reads it even if a page saw it already."""
        started = time.perf_counter()
        counter = store.read(self.counter, use_case="drawer_index_counter")
        keys, lengths = KeyIndex(), array("q")
        gathered = _Gathered(keys)
        after = FIRST_ENTITY_CURSOR[store.dialect]
        while True:
            if stopping():
                return None
            page = store.read(partial(_page, after), use_case="drawer_index_build")
            if not page:
                break
            after = page[-1]["cursor"]
            live = [r for r in page if r["current"] and r["terms"]]
            if not live:
                continue
            gathered.add([(r["id"], r["terms"]) for r in live])
            lengths.extend(int(r["norm_len"] or 0) for r in live)
        gathered.close()
        with self._lock:
            self._keys, self._lengths, self._dead_rows = keys, lengths, bytearray(keys.rows)
            self._recent = RecentRows(keys)
            self._built(counter)
        return BuildStats(keys.rows, keys.entries, time.perf_counter() - started, self.nbytes)

    def warm(self, store: GraphStore, stopping: Callable[[], bool] = lambda: False) -> int:
        """After the build, make the newest current drawers known, down the drawer sequence,
        until the known drawers are full or every stamped drawer is known; how many were made
        known. A service just started then decides writes into a room it did not write itself
        in one round trip (`graph.drawers.palace._store_unread`), as it does once its writes have
        read the drawers they chose. A page read while a delete or a wipe came in is dropped, and
        the warming stops: the drawer deleted may be on it."""
        made_known = 0
        high = self.position().value
        while high > 0 and not stopping():
            low = max(0, high - WARM_SPAN)
            looked_at = self.position()
            page = store.read(partial(_known_page, low, high), use_case="drawer_index_warm")
            page.sort(key=lambda row: -int(row["seq"]))
            drawers = [KnownDrawer.read(row["drawer"]) for row in page]
            with self._lock:
                if (self._epoch, self._deletes) != (looked_at.epoch, looked_at.deletes):
                    return made_known
                for drawer_id, known in drawers:
                    if not self.known.put_if_room(drawer_id, known):
                        return made_known
                    made_known += 1
            high = low
        return made_known

    def _start_over(self) -> None:
        self._keys, self._lengths, self._dead_rows = KeyIndex(), array("q"), bytearray()
        self._recent = RecentRows(self._keys)
        self.known.clear()

    def _take_since(self, tx: Tx, after: int, upto: int) -> None:
        changed = tx.run("drawers_since", after=after, upto=upto)
        self._add([(r["id"], r["terms"], int(r["norm_len"] or 0)) for r in changed if _live(r)])
        self._bury(r["id"] for r in changed if not r["current"])

    def written(
        self,
        epoch: str | None,
        seq: int,
        drawers: Sequence[tuple[str, Sequence[str], KnownDrawer]],
        closed: Iterable[str] = (),
    ) -> None:
        """After a unit's statement committed: its own drawers (id, stored terms, what a later
        write compares with) and those it closed. The drawers become known whatever happened
        meanwhile; the index takes them and the closes in if nothing else was stamped in
        between (otherwise the next catch-up reads them)."""
        for drawer_id, _, known in drawers:
            self.known.put(drawer_id, known)

        def take() -> None:
            self._add([(i, terms, known.norm_len) for i, terms, known in drawers if terms])
            self._bury(closed)

        self._take_written(epoch, seq, take)

    def forget(self, ids: Sequence[str], counter: Counter) -> None:
        """Drawers this instance deleted, the counter as the delete left it (a delete leaves
        nothing a catch-up could read): they stop counting and are no longer known."""

        def take() -> None:
            self._bury(ids)
            self.known.drop(ids)

        self._took_deletes(counter, take)

    def _deleted_elsewhere(self) -> None:
        """Another unit deleted drawers: which, nothing tells, so no drawer stays known (each
        is read whole again, and one deleted is not found)."""
        self.known.clear()

    def counts(self, drawer_id: str) -> bool:
        """Whether the drawer counts in its terms' postings (known, and not closed or deleted)."""
        with self._lock:
            rows = self._keys.rows_of([drawer_id])
            return any(not self._dead_rows[row] for row in rows)

    def choose(
        self, anchors: Sequence[str], bands: Sequence[str], lengths: tuple[int, int], caps: Limits
    ) -> Choice:
        """The drawers `drawer_candidates` ranks for these probes, best first per branch: the
        `rare_terms` word pairs with the fewest drawers (at most `per_term` each, the newest),
        and the bands with fewer than `per_term` drawers, each drawer by the number of chosen
        probes it shares, then by id; only those whose length allows a near copy."""
        [choice] = self.choose_all([Probes(anchors, bands, lengths)], caps)
        return choice

    def choose_all(self, writes: Sequence["Probes"], caps: Limits) -> list[Choice]:
        """`choose` for each of several writes (a checkpoint batch), in one pass: in the
        compiled core where it runs (`native_choose_all`), else in numpy
        (`python_choose_all`, its twin)."""
        native = chosen_core.segments
        if native is not None:
            chosen = self.native_choose_all(writes, caps, native)
            if chosen is not None:
                return chosen
        return self.python_choose_all(writes, caps)

    def native_choose_all(
        self, writes: Sequence["Probes"], caps: Limits, native: ModuleType
    ) -> list[Choice] | None:
        """`python_choose_all` in the compiled core (`native`), or None where a probe is no
        UTF-8 (a lone surrogate): the caller runs the twin.

        The core reads the segments, the dead rows, the lengths and the packed ids in place,
        under the lock, and walks each probe's entries from its newest back until it has the
        `per_term` live rows a choice reads of it: at 100 k drawers numpy paid ~40 calls of a
        fixed cost per write, over ~15,000 (probe, row) pairs where ~1,000 count. The ranked
        rows become ids where a write reads them (`_Ranked`), as the twin's do."""
        names = [probe for write in writes for probe in (*write.anchors, *write.bands)]
        shapes = [(len(w.anchors), len(w.bands), w.lengths[0], w.lengths[1]) for w in writes]
        with self._lock:
            keys = self._keys
            probes, rows = self._recent.held(names)
            segments, uuids, other_ids = keys.packed()
            # The lengths as bytes: an empty `array('q')`'s buffer is not aligned for int64.
            with memoryview(self._lengths) as typed, typed.cast("B") as lengths:
                chosen = native.drawer_choice(
                    names, shapes, probes, rows, segments, self._dead_rows, lengths, uuids,
                    other_ids, (caps.per_term, caps.rare_terms, caps.any_len_above),
                )  # fmt: skip
        if chosen is None:
            return None
        return [Choice(_Ranked(keys, terms), _Ranked(keys, bands)) for terms, bands in chosen]

    def python_choose_all(self, writes: Sequence["Probes"], caps: Limits) -> list[Choice]:
        """`choose_all` in numpy: the compiled core's twin.

        In numpy over (probe, row) pairs, every write's probes at once: a common pair or band
        finds thousands of drawers in a room of 100 k, and only the few ranked ones are ever
        turned into ids; and a batch of 25 items pays one lookup and one ranking, not 25 of
        each with their fixed cost per numpy call (design §4.5)."""
        names = [probe for write in writes for probe in (*write.anchors, *write.bands)]
        sizes = [len(write.anchors) + len(write.bands) for write in writes]
        owner = np.repeat(np.arange(len(writes), dtype=np.intp), sizes)
        starts = np.cumsum([0, *sizes[:-1]]).astype(np.intp)
        is_anchor = np.arange(len(names)) - starts[owner] < np.repeat(
            np.asarray([len(write.anchors) for write in writes], dtype=np.intp), sizes
        )
        with self._lock:
            keys = self._keys
            found, rows = self._newest_live(names, caps.per_term)
            counts = np.bincount(found, minlength=len(names))
            rare = _rare_pairs(names, owner, is_anchor, counts, caps)
            # Only the pairs of a rare word pair or of a band under the cap can be chosen: the
            # rest (most of them, at 100 k) go before any more work is done per pair, the sort
            # by probe and row included.
            kept = np.flatnonzero((rare | (~is_anchor & (counts < caps.per_term)))[found])
            found, rows = _by_probe_and_row(found[kept], rows[kept])
            stored_lengths = np.frombuffer(self._lengths, dtype=np.int64)[rows]
            item = owner[found]
            low = np.asarray([write.lengths[0] for write in writes], dtype=np.int64)[item]
            high = np.asarray([write.lengths[1] for write in writes], dtype=np.int64)[item]
            near = (stored_lengths >= low) & (
                (stored_lengths <= high) | (stored_lengths > caps.any_len_above)
            )
            # A rare word pair's rows are all kept: its newest `per_term` are the last of them.
            of_rare = rare[found]
            kept_counts = np.bincount(found, minlength=len(names))
            in_rare = of_rare & _newest(found, caps.per_term, kept_counts) & near
            in_bands = ~of_rare & near
            # Under the lock too: the ranking reads the packed ids through a view of their
            # buffer, which a write adding its row (`written`, after its unit, outside the
            # store's lock) could not grow meanwhile (`BufferError`, seen under 4 writers).
            terms = _ranked_per_write(keys, item[in_rare], rows[in_rare], len(writes))
            bands = _ranked_per_write(keys, item[in_bands], rows[in_bands], len(writes))
        return [Choice(t, b) for t, b in zip(terms, bands, strict=True)]

    def _newest_live(self, names: Sequence[str], most: int) -> tuple[NDArray[np.intp], Rows]:
        """(probe, row) pairs of the live drawers the probes find: each probe's newest `most`
        at least, or all it has if fewer (lock held). That is all a choice reads of a probe
        (its count capped at `most`, the newest `most` of a rare word pair, a band's drawers
        only under `most`): at 100 k drawers a batch of 25 finds ~411,000 pairs, ~40,000 of
        them its probes' newest. Each segment gives a probe's newest `most`
        entries; where it had more and one of those is dead or a repeat, the probe's newest
        live rows may lie further back, so that probe is looked up whole."""
        found, rows, cut = self._keys.newest_hits(names, most)
        found, rows = self._recent.after(found, rows, names)
        entries = np.bincount(found, minlength=len(names))
        found, rows = self._live(*_each_once(found, rows))
        if len(cut):
            short = cut[np.bincount(found, minlength=len(names))[cut] < entries[cut]]
            if len(short):
                again = [names[place] for place in short.tolist()]
                whole = self._recent.after(*self._keys.hits(again), again)
                more_found, more_rows = self._live(*_each_once(*whole))
                kept = ~np.isin(found, short)
                found = np.concatenate((found[kept], short[more_found]))
                rows = np.concatenate((rows[kept], more_rows))
        return found, rows

    def _live(self, found: NDArray[np.intp], rows: Rows) -> tuple[NDArray[np.intp], Rows]:
        """The pairs whose drawer is not dead (lock held)."""
        if len(rows) and 1 in self._dead_rows:  # a byte per drawer, not a pick per pair
            live = ~np.frombuffer(self._dead_rows, dtype=np.bool_)[rows]
            return found[live], rows[live]
        return found, rows

    def _add(self, drawers: Sequence[tuple[str, Sequence[str], int]]) -> None:
        """New rows, with the latest ones until they make a segment (lock held)."""
        self._recent.add([(drawer_id, terms) for drawer_id, terms, _ in drawers])
        self._lengths.extend(length for _, _, length in drawers)
        self._dead_rows.extend(bytes(len(drawers)))

    def _bury(self, ids: Iterable[str]) -> None:
        """Closed or deleted drawers stop counting (lock held)."""
        ids = list(ids)
        if ids:
            for row in self._keys.rows_of(ids):
                self._dead_rows[row] = 1


class _Gathered:
    """A build's (hash, row) pairs, page by page, made into one segment per
    `SEGMENT_MAX_ENTRIES` pairs (one at 100 k drawers, 15.8 M pairs).

    A segment per page merged as they came (`KeyIndex.push`) made a merge of the whole index
    so far with each page that doubled it: the last copied both halves as 16-byte pairs, and
    the build of a room of 100 k peaked at ~700 MB for a 70 MB index. Gathered, the pairs
    cost 12 bytes each and are sorted once: a write's probes then search one segment, not a
    few, where a build in bucket ranges (`Filler`) leaves 64 (a search of each cost a write
    4 ms at 100 k drawers)."""

    def __init__(self, keys: KeyIndex) -> None:
        self._keys = keys
        self._first = keys.rows
        """The first row of the segment being gathered: its rows are kept less it."""
        self._hashes: list[NDArray[np.uint64]] = []
        self._rows: list[NDArray[np.uint32]] = []
        self._size = 0

    def add(self, drawers: Sequence[tuple[str, Sequence[str]]]) -> None:
        """Drawers (id, stored terms), given in the order their rows are to be."""
        first = self._keys.rows - self._first
        for drawer_id, _ in drawers:
            self._keys.row_for(drawer_id)
        counts = np.fromiter((len(t) for _, t in drawers), dtype=np.int64, count=len(drawers))
        self._hashes.append(key_hashes([term for _, terms in drawers for term in terms]))
        last = self._keys.rows - self._first
        self._rows.append(np.repeat(np.arange(first, last, dtype=np.uint32), counts))
        self._size += len(self._hashes[-1])
        if self._size >= SEGMENT_MAX_ENTRIES:
            self.close()

    def close(self) -> None:
        """What was gathered as one segment, each page's arrays freed as they are copied."""
        if not self._size:
            return
        hashes = np.empty(self._size, dtype=np.uint64)
        rows = np.empty(self._size, dtype=np.uint32)
        at = 0
        self._hashes.reverse()
        self._rows.reverse()
        while self._hashes:
            page_hashes, page_rows = self._hashes.pop(), self._rows.pop()
            hashes[at : at + len(page_hashes)] = page_hashes
            rows[at : at + len(page_rows)] = page_rows
            at += len(page_hashes)
        self._size = 0
        self._keys.push_since(self._first, hashes, rows)
        self._first = self._keys.rows


def _each_once(found: NDArray[np.intp], rows: Rows) -> tuple[NDArray[np.intp], Rows]:
    """The (probe, row) pairs of `KeyIndex.hits` without repeats. A pair comes twice only when
    two keys of one drawer fall in the probe's bucket with its tag: one segment then holds two
    equal entries, side by side in its sorted bucket, so the repeat follows its first (no sort
    of every pair: at 100 k drawers a write's common probes find ~15,000)."""
    if len(rows) < 2:
        return found, rows
    again = np.flatnonzero((found[1:] == found[:-1]) & (rows[1:] == rows[:-1]))
    if not len(again):
        return found, rows
    first = np.ones(len(rows), dtype=np.bool_)
    first[again + 1] = False
    return found[first], rows[first]


def _by_probe_and_row(found: NDArray[np.intp], rows: Rows) -> tuple[NDArray[np.intp], Rows]:
    """The pairs sorted by probe, then row. `KeyIndex.hits` gives each probe's rows ascending
    per segment, and a later segment holds later rows, so a stable sort by probe alone (a radix
    sort of small integers) is enough; should the rows of a probe not ascend, all are sorted."""
    small = len(found) == 0 or int(found.max()) < 1 << 16
    order = np.argsort(found.astype(np.uint16) if small else found, kind="stable")
    found, rows = found[order], rows[order]
    if len(rows) > 1 and bool(np.any((found[1:] == found[:-1]) & (rows[1:] < rows[:-1]))):
        order = np.lexsort((rows, found))
        found, rows = _each_once(found[order], rows[order])
    return found, rows


def _rare_pairs(
    names: Sequence[str],
    owner: NDArray[np.intp],
    is_anchor: NDArray[np.bool_],
    counts: NDArray[np.int64],
    caps: Limits,
) -> NDArray[np.bool_]:
    """Which probes are the word pairs a write compares: its `rare_terms` with the fewest
    drawers (capped at `per_term`, then by the term itself), among those with any."""
    capped = np.minimum(counts, caps.per_term)
    present = np.flatnonzero(is_anchor & (capped > 0))
    texts = [names[i] for i in present.tolist()]
    by_text = np.empty(len(present), dtype=np.intp)
    by_text[sorted(range(len(texts)), key=texts.__getitem__)] = np.arange(len(texts))
    ranked = present[np.lexsort((by_text, capped[present], owner[present]))]
    ranked_owner = owner[ranked]
    first = np.searchsorted(ranked_owner, ranked_owner)
    rare = np.zeros(len(names), dtype=np.bool_)
    rare[ranked[np.arange(len(ranked)) - first < caps.rare_terms]] = True
    return rare


def _newest(found: NDArray[np.intp], per_term: int, counts: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which of the (probe, row) pairs, sorted by probe then row, are among their probe's
    `per_term` highest rows."""
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    place = np.arange(len(found)) - starts[found]
    return place >= counts[found] - per_term


def _ranked_per_write(
    keys: KeyIndex, items: NDArray[np.intp], rows: NDArray[np.int64], writes: int
) -> list["_Ranked"]:
    """Each write's rows by the number of times they come (descending), then by id."""
    unique, shared = np.unique((items.astype(np.int64) << 32) | rows, return_counts=True)
    owners, rows = unique >> 32, unique & 0xFFFF_FFFF
    order_keys = keys.order_keys(rows) if len(rows) else None
    if order_keys is None:  # an id that is not a UUID among them: ids compared as strings
        ids = [keys.id_of(int(row)) for row in rows]
        order = sorted(range(len(ids)), key=lambda i: (int(owners[i]), -int(shared[i]), ids[i]))
        ranked = np.asarray(order, dtype=np.intp)
    else:
        high, low = order_keys
        ranked = np.lexsort((low, high, -shared, owners))
    bounds = np.searchsorted(owners[ranked], np.arange(writes + 1)).tolist()
    ordered = rows[ranked].tolist()
    return [_Ranked(keys, ordered[bounds[w] : bounds[w + 1]]) for w in range(writes)]


class _Ranked(Sequence[str]):
    """Ranked rows, converted to drawer ids only where read: a write reads each ranking from its
    start a window at a time, as one slice (`graph.drawers.candidates.settle`)."""

    def __init__(self, keys: KeyIndex, rows: list[int]) -> None:
        self._keys = keys
        self._rows = rows
        self._ids: list[str] = []

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            places = range(*index.indices(len(self)))
            if places:
                self._convert(max(places))
            return [self._ids[i] for i in places]
        if 0 <= index < len(self._ids):
            return self._ids[index]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self._rows):
            raise IndexError(index)
        self._convert(index)
        return self._ids[index]

    def _convert(self, upto: int) -> None:
        """Ids of the rows up to place `upto`, converted once, together (outside the index's
        lock: `KeyIndex.ids_unlocked`)."""
        self._ids.extend(self._keys.ids_unlocked(self._rows[len(self._ids) : upto + 1]))


def _live(row: Row) -> bool:
    return bool(row["current"]) and bool(row["terms"])


def _page(after: object, tx: Tx) -> list[Row]:
    return tx.run("drawer_terms_page", after=after, limit=BUILD_PAGE)


def _known_page(low: int, high: int, tx: Tx) -> list[Row]:
    return tx.run("known_drawers_page", low=low, high=high)
