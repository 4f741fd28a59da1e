"""The data of the in-memory candidate indexes (`graph.indexes.entity_index`, `drawer_index`):
rows, buckets, entries.

Each indexed item gets a row; a segment holds (key, row) pairs bucketed by the top bits of the
key's 64-bit hash, one uint32 per entry, so a key costs about 4.35 bytes where a uint64 of hash
and row took 8. See `Segment` for the layout and its price, `Filler` for the build.
"""

import uuid
from collections.abc import Callable, Collection, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from castlegraph.graph.indexes.kind_runs import KindRuns, KindsOf
from castlegraph.resolver import core as chosen_core

_HEX = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)
_UUID_GROUPS = ((0, 8, 0), (8, 12, 9), (12, 16, 14), (16, 20, 19), (20, 32, 24))
"""(first hex digit, past the last, place in the text) of a UUID's five groups."""
Hashes = NDArray[np.uint64]
Rows = NDArray[np.int64]
Spans = tuple[int, NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]
"""Where probes' entries are in a segment (`Segment._spans`)."""

SegmentArrays = tuple[NDArray[np.uint32], NDArray[np.uint32], int, int, int, int, int, int]
"""A segment as the compiled core reads it: entries, offsets, first and last bucket, bucket,
tag and row bits, base."""

PairFilter = Callable[[list[str], Rows, NDArray[np.intp]], NDArray[np.bool_]]
"""Which (row, probe) pairs of a lookup to keep: the probes, the rows, each pair's probe."""
WantedKinds = Callable[[list[str]], list[Collection[int] | None]]
"""For probes that met a long run (`graph.indexes.kind_runs`), the kind codes each wants, or None
for every kind."""
SegmentKinds = Callable[
    [NDArray[np.intp]], tuple[NDArray[np.bool_], NDArray[np.intp], NDArray[np.uint32]]
]
"""`WantedKinds` as a segment asks it: for probes (places in its sorted hashes), whether each
wants every kind, and (probe, kind code) pairs of the others (the probe as a place in the
places asked)."""

ENTRY_BITS = 32
HASH_BITS = 34
"""Bucket and tag bits compared per entry: the rest of a 64-bit hash is not kept."""
ENTRIES_PER_BUCKET = 8
"""A segment's buckets hold 8 to 16 entries: fewer would grow the table (4 bytes a bucket),
more the entries a probe reads."""
MAX_BUCKET_BITS = 22
SEGMENT_MAX_ENTRIES = 16_000_000
"""Segments added after the build merge up to this size (64 MB): a merge copies both."""
PAIRS_CHUNK_BUCKETS = 1 << 16
"""Buckets a merge turns back into pairs at a time (about a million pairs)."""
BLOCK_BITS = 16
"""Rows per block of a build (65,536): the row's place in its block and the tag share an entry."""
BLOCK_BUCKET_BITS = 18
BUILD_PARTS = 64
"""Bucket ranges a build is assembled in: each range's block parts are freed once it is done."""


def key_hashes(keys: Sequence[str]) -> Hashes:
    """Python's own string hash (64 bits, seeded per process: the index lives in one), taken
    by the compiled core where it runs (the same values, without a Python step per key)."""
    native = chosen_core.segments
    if native is None:
        return python_key_hashes(keys)
    return np.frombuffer(native.key_hashes(keys), dtype=np.uint64)


def python_key_hashes(keys: Sequence[str]) -> Hashes:
    """`key_hashes` in numpy, the compiled core's twin."""
    return np.fromiter(map(hash, keys), dtype=np.int64, count=len(keys)).view(np.uint64)


def bucket_bits_for(entries: int) -> int:
    return min(max(entries // ENTRIES_PER_BUCKET, 1).bit_length() - 1, MAX_BUCKET_BITS)


def _bits_for(rows: int) -> int:
    """Bits that tell `rows` rows apart (at least one)."""
    return max(rows - 1, 1).bit_length()


@dataclass(frozen=True, slots=True)
class Geometry:
    """How a segment's entries are cut from the hash: bucket, tag, then the row's bits."""

    bucket_bits: int
    tag_bits: int
    row_bits: int
    base: int = 0
    """Added to an entry's row bits: a block's first row."""

    @classmethod
    def fitting(
        cls, bucket_bits: int, row_bits: int, hash_bits: int = HASH_BITS, base: int = 0
    ) -> "Geometry":
        """A tag as wide as the entry leaves, and no wider than the hash bits known; the row
        (less `base`) takes the rest of the entry."""
        tag_bits = min(ENTRY_BITS - row_bits, hash_bits - bucket_bits)
        return cls(bucket_bits, tag_bits, ENTRY_BITS - tag_bits, base)

    @classmethod
    def for_rows(
        cls, entries: int, first: int, rows: int, hash_bits: int = HASH_BITS
    ) -> "Geometry":
        """For `entries` pairs of the rows `first` to `first + rows - 1`, kept less `first`.
        A segment of a few rows (a write's, a batch's) so keeps all `hash_bits` in few
        buckets: with the row's full width in each entry (17 bits at 100 k drawers), a write's
        145 entries in 16 buckets kept 19 bits of hash, its merges no more, and a probe found
        ~30 rows of other terms in an index of 100 k drawers grown by writes."""
        bucket_bits = min(bucket_bits_for(entries), hash_bits - 1)
        return cls.fitting(bucket_bits, _bits_for(rows), hash_bits, first)

    @property
    def hash_bits(self) -> int:
        return self.bucket_bits + self.tag_bits

    def buckets(self, hashes: Hashes) -> NDArray[np.intp]:
        return (hashes >> np.uint64(64 - self.bucket_bits)).astype(np.intp)

    def tags(self, hashes: Hashes) -> Hashes:
        shifted = hashes >> np.uint64(64 - self.hash_bits)
        return shifted & np.uint64((1 << self.tag_bits) - 1)


@dataclass(frozen=True, slots=True)
class Segment:
    """Entries of buckets `first` to `first + len(offsets) - 2`, by bucket.

    An offsets array (uint32, one per bucket) says where each bucket's entries start, and an entry
    is one uint32: the next `tag_bits` of the hash (the tag) over the row. A bucket's entries are
    sorted by tag, then row, so a lookup finds a probe's entries by binary search of its bucket
    (about a dozen entries), all probes at once; the drawer index asks only for each probe's newest
    few (`newest_hits`), the last of them.

    The price is hash bits: a probe's bucket and tag are 34 of its 64 at a million entities (20 bits
    of row, 12 of tag, 22 of bucket), so an entry whose hash agrees on those is answered under a
    probe it does not store: about `entries / 2**34` rows per probe. That only over-fetches: the
    rules measure every candidate's real distance, and each entity within reach of a probe is found
    through its own keys anyway.
    """

    geometry: Geometry
    first: int
    offsets: NDArray[np.uint32]
    """Bucket `first + b`'s entries are `entries[offsets[b]:offsets[b + 1]]`."""
    entries: NDArray[np.uint32]
    """Sorted within each bucket: tag | row (less `base`)."""
    kind_runs: KindRuns | None = None
    """Its long runs by kind, in an index that knows its rows' kinds (`with_kind_runs`)."""

    @classmethod
    def of(
        cls,
        hashes: Hashes,
        rows: NDArray[np.integer],
        geometry: Geometry,
        first: int = 0,
        last: int = -1,
    ) -> "Segment":
        """The pairs (`hashes[i]`, row `base + rows[i]`), their buckets `first` to `last` (all
        by default); `hashes` is consumed. Bucket and tag are the hash's top bits, so one
        uint64 per pair, (bucket - first) | tag | row, is made in `hashes`'s own memory and
        sorted there; the entries are its low 32 bits."""
        keyed = _keyed(hashes, rows, geometry, first)
        keyed.sort()
        return cls.sorted(keyed, geometry, first, last)

    @classmethod
    def sorted(cls, keyed: Hashes, geometry: Geometry, first: int = 0, last: int = -1) -> "Segment":
        """From sorted (bucket - first) | entry values, of buckets `first` to `last` (all by
        default)."""
        last = (1 << geometry.bucket_bits) - 1 if last < 0 else last
        starts = np.arange(last - first + 2, dtype=np.uint64) << np.uint64(ENTRY_BITS)
        offsets = np.searchsorted(keyed, starts).astype(np.uint32)
        return cls(geometry, first, offsets, keyed.astype(np.uint32))

    @property
    def last(self) -> int:
        return self.first + len(self.offsets) - 2

    def pairs_into(self, hashes: Hashes, rows: NDArray[np.uint32], lo: int, hi: int) -> int:
        """Write the pairs of buckets `first + lo` to `first + hi - 1` as (hash, row - `base`)
        into the heads of `hashes` and `rows`; how many. The hash bits not kept are zero (a
        segment made of them must not compare more)."""
        g = self.geometry
        start, end = int(self.offsets[lo]), int(self.offsets[hi])
        entries = self.entries[start:end]
        out = hashes[: end - start]
        counts = np.diff(self.offsets[lo : hi + 1])
        out[:] = np.repeat(np.arange(self.first + lo, self.first + hi, dtype=np.uint64), counts)
        out <<= np.uint64(g.tag_bits)
        out |= entries >> np.uint32(g.row_bits)
        out <<= np.uint64(64 - g.hash_bits)
        np.bitwise_and(entries, np.uint32((1 << g.row_bits) - 1), out=rows[: end - start])
        return end - start

    def all_pairs_into(self, hashes: Hashes, rows: NDArray[np.uint32]) -> int:
        """`pairs_into` of every bucket, `PAIRS_CHUNK_BUCKETS` at a time: its temporaries (8
        bytes a pair for the bucket numbers alone) stay small, where a merge of 14.6 M pairs
        peaked at 20 bytes a pair with them made for the whole segment at once."""
        buckets, written = len(self.offsets) - 1, 0
        for lo in range(0, buckets, PAIRS_CHUNK_BUCKETS):
            hi = min(lo + PAIRS_CHUNK_BUCKETS, buckets)
            written += self.pairs_into(hashes[written:], rows[written:], lo, hi)
        return written

    def _buckets(self, hashes: Hashes) -> tuple[int, int, NDArray[np.intp], NDArray[np.intp]]:
        """The slice `lo:hi` of `hashes` (sorted) that falls in the segment's buckets, and
        where each of those hashes' buckets starts and ends in `entries`."""
        g = self.geometry
        shift = 64 - g.bucket_bits
        lo = int(np.searchsorted(hashes, np.uint64(self.first << shift)))
        end = (self.last + 1) << shift
        hi = int(np.searchsorted(hashes, np.uint64(end))) if end < 1 << 64 else len(hashes)
        buckets = g.buckets(hashes[lo:hi]) - self.first
        return (
            lo,
            hi,
            self.offsets[buckets].astype(np.intp),
            self.offsets[buckets + 1].astype(np.intp),
        )

    def with_kind_runs(self, kinds_of: KindsOf) -> "Segment":
        """The segment with its long runs kept by kind too (`graph.indexes.kind_runs`)."""
        runs = KindRuns.of(self.entries, self.offsets, self.geometry.row_bits, self._rows, kinds_of)
        return replace(self, kind_runs=runs)

    def find(
        self, hashes: Hashes, wanted: SegmentKinds | None = None
    ) -> tuple[NDArray[np.intp], Rows]:
        """(probe position, row) of every entry in a probe's bucket with the probe's tag;
        `hashes` sorted, so those of the segment's buckets are one slice. Without `wanted`, by
        probe, then row. With it, a probe that meets a long run kept by kind gets only the
        entries of the kinds it wants (`graph.indexes.kind_runs`)."""
        runs = self.kind_runs
        if chosen_core.segments is not None:
            found, spans = native_find(self, hashes, runs if wanted is not None else None)
            if found is not None:  # no probe met a long run: the kinds need not be asked
                return found
            assert spans is not None  # the core answers one of the two
            lo, probes, first, past = spans
        else:
            lo, probes, first, past = self._spans(hashes, ends_of_all=False)
        run = runs.run_at(first) if runs is not None and wanted is not None else None
        if runs is None or wanted is None or run is None or not (run >= 0).any():
            owners, places = _ranges(first, past - first)
            return probes[owners] + lo, self._rows(places)
        dense = np.flatnonzero(run >= 0)
        every, pair_probe, codes = wanted(probes[dense] + lo)
        whole = np.ones(len(first), dtype=np.bool_)
        whole[dense[~every]] = False
        owners, places = _ranges(first[whole], (past - first)[whole])
        narrowed = dense[pair_probe]
        begin, end = runs.bounds(run[narrowed], codes)
        kind_owners, kind_places = _ranges(begin, end - begin)
        positions = np.concatenate((probes[whole][owners], probes[narrowed][kind_owners]))
        places = np.concatenate((places, runs.places[kind_places]))
        return positions + lo, self._rows(places)

    def newest(self, hashes: Hashes, most: int) -> tuple[NDArray[np.intp], Rows, NDArray[np.intp]]:
        """`find` of each probe's last `most` entries only, which are its newest rows (a
        bucket holds a tag's entries by row), and the probes that had more (their places in
        `hashes`): in a room of 100 k drawers a common band's bucket holds thousands."""
        lo, probes, first, past = self._spans(hashes, ends_of_all=True)
        taken = np.maximum(first, past - most)
        owners, places = _ranges(taken, past - taken)
        return probes[owners] + lo, self._rows(places), probes[taken > first] + lo

    def _spans(self, hashes: Hashes, *, ends_of_all: bool) -> Spans:
        """`python_spans`, or the compiled core's where it runs (`native_spans`)."""
        if chosen_core.segments is not None:
            return native_spans(self, hashes, ends_of_all=ends_of_all)
        return python_spans(self, hashes, ends_of_all=ends_of_all)

    def python_spans(self, hashes: Hashes, *, ends_of_all: bool) -> Spans:
        """Where probes' entries are: the slice `lo:` of `hashes` that falls in the segment's
        buckets, probes (places in that slice), and where each one's entries start and end in
        `entries`. Every probe of the slice with `ends_of_all`, else those with entries only.

        A bucket's entries are sorted by tag, so a probe's first entry is found by a binary
        search of its bucket (all probes at once, `_lower_bounds`), and past its last by a
        second. A lookup's tens of thousands of probes mostly meet nothing, so the second
        search is for the few that met an entry: searching every probe's end too took twice
        as long (2026-12-03, on lookups captured from `bench mentions`). A drawer write's
        hundred or two probes take both searches in one call: two calls cost it ~100 µs more
        a segment. Reading every entry of every probe's bucket (a dozen each: ~700,000 for a
        batch of mentions) took 1.5 times as long at a million entities, 1.8 times at 10,000,
        and 16-24 MB of temporaries for a segment that covers every bucket, against 5 MB."""
        g = self.geometry
        lo, hi, start, end = self._buckets(hashes)
        below = g.tags(hashes[lo:hi]) << np.uint64(g.row_bits)
        after = np.uint64(1 << g.row_bits)
        if ends_of_all:
            bounds = _lower_bounds(
                self.entries,
                np.concatenate((start, start)),
                np.concatenate((end, end)),
                np.concatenate((below, below + after)),
            )
            return lo, np.arange(len(start)), bounds[: len(start)], bounds[len(start) :]
        first = _lower_bounds(self.entries, start, end, below)
        met = np.flatnonzero(first < end)
        met = met[self.entries[first[met]] >> np.uint32(g.row_bits) == below[met] >> g.row_bits]
        begin = first[met]
        return lo, met, begin, _lower_bounds(self.entries, begin + 1, end[met], below[met] + after)

    def _rows(self, places: NDArray[np.intp]) -> Rows:
        g = self.geometry
        return (self.entries[places] & np.uint32((1 << g.row_bits) - 1)).astype(np.int64) + g.base

    @property
    def nbytes(self) -> int:
        kinds = self.kind_runs.nbytes if self.kind_runs is not None else 0
        return self.offsets.nbytes + self.entries.nbytes + kinds


def python_spans(segment: Segment, hashes: Hashes, *, ends_of_all: bool) -> Spans:
    """`Segment._spans` in numpy, whichever core runs (the reference of the compiled one)."""
    return segment.python_spans(hashes, ends_of_all=ends_of_all)


def native_spans(segment: Segment, hashes: Hashes, *, ends_of_all: bool) -> Spans:
    """`Segment._spans` in the compiled core: one pass over the probes, a binary search of each
    one's bucket, where numpy took a dozen passes over all of them per segment."""
    core = _core()
    g = segment.geometry
    lo, probes, first, past = core.segment_spans(
        segment.entries, segment.offsets, segment.first, segment.last,
        g.bucket_bits, g.tag_bits, g.row_bits, hashes, ends_of_all,
    )  # fmt: skip
    return lo, _intp(probes), _intp(first), _intp(past)


def python_find(segment: Segment, hashes: Hashes) -> tuple[NDArray[np.intp], Rows]:
    """`Segment.find` without kinds, in numpy (the reference of `native_find`)."""
    lo, probes, first, past = segment.python_spans(hashes, ends_of_all=False)
    owners, places = _ranges(first, past - first)
    return probes[owners] + lo, segment._rows(places)


def native_find(
    segment: Segment, hashes: Hashes, runs: KindRuns | None = None
) -> tuple[tuple[NDArray[np.intp], Rows] | None, Spans | None]:
    """`Segment.find` without kinds in the compiled core: spans, entries and rows in one call.
    Given the segment's long runs, where a probe meets one, the spans instead (its kinds must be
    asked): most lookups meet none, and are answered without a numpy pass."""
    core = _core()
    g = segment.geometry
    found, spans = core.segment_find(
        segment.entries, segment.offsets, segment.first, segment.last,
        g.bucket_bits, g.tag_bits, g.row_bits, g.base, hashes,
        None if runs is None else np.ascontiguousarray(runs.starts, dtype=np.int64),
    )  # fmt: skip
    if found is not None:
        positions, rows = found
        return (_intp(positions), np.frombuffer(rows, dtype=np.int64)), None
    lo, probes, first, past = spans
    return None, (lo, _intp(probes), _intp(first), _intp(past))


def _core() -> Any:
    """The compiled core, which `native_spans` and `native_find` need: the one the service
    chose, bound at start (no import on the lookup's path), or, for the differential tests
    that call these under either choice, the module itself."""
    core = chosen_core.segments or chosen_core.native_module()
    if core is None:
        raise ImportError("the compiled core (castlegraph._core) is not loaded")
    return core


def _intp(data: bytes) -> NDArray[np.intp]:
    return np.frombuffer(data, dtype=np.int64).astype(np.intp, copy=False)


def _ranges(
    starts: NDArray[np.intp], counts: NDArray[np.intp]
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Every place of the ranges `starts[i]` to `starts[i] + counts[i] - 1`, in order, with the
    `i` of its range."""
    owners = np.repeat(np.arange(len(counts)), counts)
    places = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(len(owners))
    return owners, places


def _lower_bounds(
    values: NDArray[np.uint32], lo: NDArray[np.intp], hi: NDArray[np.intp], targets: Hashes
) -> NDArray[np.intp]:
    """For each i, the first place in `values[lo[i]:hi[i]]` (sorted) whose value is not below
    `targets[i]`, or `hi[i]`: the binary searches of every range at once, each step on the
    ranges still open (a bucket of a dozen entries closes in four steps)."""
    lo, hi = lo.copy(), hi.copy()
    open_ = np.flatnonzero(lo < hi)
    while len(open_):
        low, high = lo[open_], hi[open_]
        middle = (low + high) >> 1
        right = values[middle] < targets[open_]
        lo[open_] = np.where(right, middle + 1, low)
        hi[open_] = np.where(right, high, middle)
        open_ = open_[lo[open_] < hi[open_]]
    return lo


def _keyed(hashes: Hashes, rows: NDArray[np.integer], g: Geometry, first: int) -> Hashes:
    """(bucket - `first`) | tag | row for each pair, in `hashes`'s memory, to be sorted."""
    keyed = hashes
    keyed >>= np.uint64(64 - g.hash_bits)
    keyed -= np.uint64(first << g.tag_bits)
    keyed <<= np.uint64(g.row_bits)
    keyed |= rows.view(np.uint64) if rows.dtype == np.int64 else rows  # rows are ≥ 0
    return keyed


def _merged(a: Segment, b: Segment, rows: int) -> Segment:
    """Both segments as one, with the hash bits both know. Their pairs are written one after
    the other into one buffer (`all_pairs_into`), the rows go into the keys, and the keys are
    sorted as the two sorted runs they are, by a merge sort that joins them in one pass: 13
    bytes a pair at the peak and ~250 ms for 14.6 M pairs, where a copy of each segment's pairs
    apart, then of both, quicksorted, took 32 bytes and 900 ms. `a` is the older, whose rows
    come first; the merged rows are kept less its first (of `rows` in all)."""
    hash_bits = min(a.geometry.hash_bits, b.geometry.hash_bits)
    size_a = len(a.entries)
    hashes = np.empty(size_a + len(b.entries), dtype=np.uint64)
    pair_rows = np.empty(len(hashes), dtype=np.uint32)
    a.all_pairs_into(hashes, pair_rows)
    b.all_pairs_into(hashes[size_a:], pair_rows[size_a:])
    first = a.geometry.base
    pair_rows[size_a:] += np.uint32(b.geometry.base - first)
    geometry = Geometry.for_rows(len(hashes), first, rows - first, hash_bits)
    keyed = _keyed(hashes, pair_rows, geometry, 0)
    del pair_rows  # in the keys now: gone before the sort takes its own buffer
    keyed.sort(kind="stable")
    return Segment.sorted(keyed, geometry)


_Asked = tuple[NDArray[np.bool_], NDArray[np.intp], NDArray[np.uint32]]


def _asking(wanted: WantedKinds, probes: Sequence[str], order: NDArray[np.intp]) -> SegmentKinds:
    """`wanted` as each segment asks it (`SegmentKinds`), each probe asked once."""
    asked: dict[int, Collection[int] | None] = {}

    def ask(places: NDArray[np.intp]) -> _Asked:
        indexes = order[places].tolist()
        fresh = [i for i in indexes if i not in asked]
        asked.update(zip(fresh, wanted([probes[i] for i in fresh]), strict=True))
        kinds = [asked[i] for i in indexes]
        counts = [len(k) if k is not None else 0 for k in kinds]
        codes = [code for k in kinds if k is not None for code in k]
        return (
            np.array([k is None for k in kinds], dtype=np.bool_),
            np.repeat(np.arange(len(kinds)), counts),
            np.array(codes, dtype=np.uint32),
        )

    return ask


def _sorted_hashes(probes: Sequence[str]) -> tuple[NDArray[np.intp], Hashes]:
    """The probes' hashes sorted, and the probe each came from: each segment then reads its
    buckets in order, and a part of a build only the probes of its bucket range."""
    hashes = key_hashes(probes)
    order = np.argsort(hashes)
    return order, hashes[order]


class KeyIndex:
    """Rows and segments: the data of an index, without its sequence bookkeeping.

    An entity's id is kept as the 16 bytes of its UUID (any other id in a small dict). What a batch
    or a catch-up adds is a segment of its own, sized to it; segments merge while the newer is not
    much the smaller, up to `SEGMENT_MAX_ENTRIES`.
    """

    def __init__(self, kinds_of: KindsOf | None = None) -> None:
        self.segments: list[Segment] = []
        self.rows = 0
        self._uuids = bytearray()
        self._other_ids: dict[int, str] = {}
        self._kinds_of = kinds_of
        """The kind code of each row, known before its pairs come (`graph.indexes.kind_runs`); None
        where rows have no kinds (the drawer index)."""
        self.examined = 0
        """Entries a lookup has read so far (`hits`): what a probe costs, for tests to count."""

    def row_for(self, entity_id: str) -> int:
        row = self.rows
        self.rows += 1
        try:
            packed = uuid.UUID(entity_id)
        except ValueError:
            packed = None
        if packed is not None and str(packed) == entity_id:
            self._uuids += packed.bytes
        else:
            self._uuids += bytes(16)
            self._other_ids[row] = entity_id
        return row

    def id_of(self, row: int) -> str:
        other = self._other_ids.get(row)
        if other is not None:
            return other
        h = self._uuids[16 * row : 16 * row + 16].hex()  # str(UUID) without a UUID: 10x less
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    @property
    def row_bits(self) -> int:
        return max(self.rows - 1, 1).bit_length()

    def add(self, entities: Sequence[tuple[str, Collection[str]]]) -> None:
        """Entities (id, stored keys) as one new segment: a batch's, or a catch-up's."""
        if not entities:
            return
        first = self.rows
        for entity_id, _ in entities:
            self.row_for(entity_id)
        counts = np.fromiter((len(k) for _, k in entities), dtype=np.int64, count=len(entities))
        hashes = key_hashes([key for _, keys in entities for key in keys])
        self.push_since(first, hashes, np.repeat(np.arange(self.rows - first), counts))

    def push_since(self, first: int, hashes: Hashes, rows: NDArray[np.integer]) -> None:
        """The pairs (`hashes[i]`, row `first + rows[i]`) of the rows added since `first`, as
        one segment that keeps every hash bit (`Geometry.for_rows`); `hashes` is consumed."""
        if len(hashes):
            geometry = Geometry.for_rows(len(hashes), first, self.rows - first)
            self.push(Segment.of(hashes, rows, geometry))

    def push(self, segment: Segment) -> None:
        """Append a segment; merge the last two while the newer is not much the smaller, so
        there are few segments (about log2 of the largest over the smallest)."""
        self.segments.append(self.with_kind_runs(segment))
        while len(self.segments) >= 2:
            older, newer = self.segments[-2], self.segments[-1]
            size = len(older.entries) + len(newer.entries)
            if len(newer.entries) * 2 < len(older.entries) or size > SEGMENT_MAX_ENTRIES:
                return
            if older.first != 0 or older.last != (1 << older.geometry.bucket_bits) - 1:
                return  # a part of a build: over a bucket range, never merged
            self.segments[-2:] = [self.with_kind_runs(_merged(older, newer, self.rows))]

    def with_kind_runs(self, segment: Segment) -> Segment:
        """The segment with its long runs by kind, where rows have kinds
        (`graph.indexes.kind_runs`)."""
        return segment if self._kinds_of is None else segment.with_kind_runs(self._kinds_of)

    def filler(self, block_bits: int = BLOCK_BITS) -> "Filler":
        return Filler(self, block_bits)

    def lookup(self, probes: Collection[str]) -> dict[str, list[str]]:
        """Entity id → the probes among `probes` it stores, sorted (each id once)."""
        found = self.lookup_rows(probes)
        return {entity_id: sorted(keys) for entity_id, (keys, _) in found.items()}

    def lookup_rows(
        self,
        probes: Collection[str],
        keep: PairFilter | None = None,
        wanted: WantedKinds | None = None,
    ) -> dict[str, tuple[list[str], int]]:
        """Entity id → the probes it stores, in no particular order, and the latest of its rows
        that met one, each id once (a respelled entity's later rows store only its newer
        spellings' keys: `graph.indexes.entity_index` answers its latest row).

        The probe hashes are sorted first: each segment reads its buckets in order, and a part
        of a build only the probes of its bucket range. The probe texts are not: sorting the
        ~50,000 of a batch's review probes cost 15 ms, and no caller needs a row's probes in
        order (`lookup` sorts the few it answers). At a million entities a batch's probes hit
        ~29,000 rows, so the answer is grouped in numpy: repeated (row, probe) pairs are
        dropped (two keys of one row can share a bucket and a tag) and the ids are written in
        one go (`ids_of`); only an entity found under two rows (respelled) is merged in Python.
        `keep` drops (row, probe) pairs first, given the probes in the order it is handed, the
        rows and each pair's place in the probes; `wanted` narrows the probes that meet a long
        run to the kinds they want (`hits`).
        """
        ordered = list(probes if isinstance(probes, AbstractSet) else set(probes))
        if not self.segments or not ordered:
            return {}
        positions, rows = self.hits(ordered, wanted)
        if keep is not None and len(rows):
            kept = keep(ordered, rows, positions)
            rows, positions = rows[kept], positions[kept]
        if not len(rows):
            return {}
        by_pair = np.lexsort((positions, rows))
        rows, positions = rows[by_pair], positions[by_pair]
        fresh = np.concatenate(
            ([True], (rows[1:] != rows[:-1]) | (positions[1:] != positions[:-1]))
        )
        rows, positions = rows[fresh], positions[fresh]
        starts = np.flatnonzero(np.concatenate(([True], rows[1:] != rows[:-1])))
        bounds = [*starts.tolist(), len(rows)]
        matched = list(map(ordered.__getitem__, positions.tolist()))
        group_rows = rows[starts].tolist()
        ids = self.ids_of(group_rows)
        by_id: dict[str, tuple[list[str], int]] = {}
        for n, entity_id in enumerate(ids):  # rows ascending: an entity's latest row comes last
            keys = matched[bounds[n] : bounds[n + 1]]
            earlier = by_id.get(entity_id)
            if earlier is not None:  # respelled: added again under another row
                keys = list(set(keys).union(earlier[0]))
            by_id[entity_id] = (keys, group_rows[n])
        return by_id

    def ids_of(self, rows: list[int]) -> list[str]:
        """`id_of` for many rows: their UUIDs' texts written by the compiled core where it runs,
        else by numpy (`python_ids_of`, its twin)."""
        native = chosen_core.segments
        if native is None or not rows:
            return self.python_ids_of(rows)
        return self._with_other_ids(rows, native.uuid_texts(self._uuids, rows))

    def ids_unlocked(self, rows: list[int]) -> list[str]:
        """`ids_of` for a caller that does not hold the index's lock: a view of the ids'
        buffer kept across Python steps would make a write that adds a row meanwhile fail
        (`BufferError`), so the compiled core's (which holds the GIL throughout), else one id
        at a time."""
        if chosen_core.segments is None:
            return [self.id_of(row) for row in rows]
        return self.ids_of(rows)

    def python_ids_of(self, rows: list[int]) -> list[str]:
        """`ids_of` in numpy, whichever core runs (the reference of the compiled one)."""
        return self._with_other_ids(rows, self._uuid_texts(rows)) if rows else []

    def _with_other_ids(self, rows: list[int], ids: list[str]) -> list[str]:
        """`ids` (the rows' UUID texts) with the ids that are no UUID in their place."""
        others = self._other_ids
        if not others:
            return ids
        return [others.get(row, entity_id) for row, entity_id in zip(rows, ids, strict=True)]

    def _uuid_texts(self, rows: list[int]) -> list[str]:
        """The rows' UUIDs' hex written by numpy, dashes included (a row whose id is no UUID
        holds 16 zero bytes: its text is the caller's to replace)."""
        table = np.frombuffer(self._uuids, dtype=np.uint8).reshape(-1, 16)[rows]
        digits = np.empty((len(rows), 32), dtype=np.uint8)
        digits[:, 0::2] = _HEX[table >> 4]
        digits[:, 1::2] = _HEX[table & 15]
        text = np.full((len(rows), 36), ord("-"), dtype=np.uint8)
        for first, last, at in _UUID_GROUPS:
            text[:, at : at + last - first] = digits[:, first:last]
        joined = text.tobytes().decode("ascii")
        return [joined[36 * n : 36 * n + 36] for n in range(len(rows))]

    def hits(
        self, probes: Sequence[str], wanted: WantedKinds | None = None
    ) -> tuple[NDArray[np.intp], Rows]:
        """(index in `probes`, row) of every entry a probe finds, unsorted and unmerged:
        `lookup_rows` groups them by row, the drawer index (`graph.indexes.drawer_index`) counts
        each probe's. With `wanted`, a probe that meets a long run kept by kind finds only the
        entries of the kinds it wants there (`graph.indexes.kind_runs`); each probe is asked
        once."""
        if not self.segments or not probes:
            return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.int64)
        order, needles = _sorted_hashes(probes)
        asking = _asking(wanted, probes, order) if wanted is not None else None
        found = [segment.find(needles, asking) for segment in self.segments]
        positions = order[np.concatenate([p for p, _ in found])]
        rows = np.concatenate([r for _, r in found])
        self.examined += len(rows)
        return positions, rows

    def newest_hits(
        self, probes: Sequence[str], most: int
    ) -> tuple[NDArray[np.intp], Rows, NDArray[np.intp]]:
        """`hits` with each probe's newest `most` entries of each segment (`Segment.newest`),
        and the probes (their places in `probes`) that a segment held more entries of."""
        if not self.segments or not probes:
            empty = np.empty(0, dtype=np.intp)
            return empty, np.empty(0, dtype=np.int64), empty
        order, needles = _sorted_hashes(probes)
        found = [segment.newest(needles, most) for segment in self.segments]
        positions = order[np.concatenate([p for p, _, _ in found])]
        cut = np.unique(order[np.concatenate([c for _, _, c in found])])
        return positions, np.concatenate([r for _, r, _ in found]), cut

    def rows_of(self, ids: Collection[str]) -> list[int]:
        """Every row of these ids (a scan of the packed ids: for the few a caller asks)."""
        wanted = set(ids)
        rows = [row for row, other in self._other_ids.items() if other in wanted]
        packed = []
        for entity_id in wanted:
            try:
                packed.append(uuid.UUID(entity_id).bytes)
            except ValueError:
                continue
        if packed:
            table = np.frombuffer(self._uuids, dtype="S16")
            for value in packed:
                rows.extend(np.flatnonzero(table == value).tolist())
        return rows

    def packed(self) -> tuple[list[SegmentArrays], bytearray, dict[int, bytes]]:
        """What the compiled core reads of the index in place (`drawer_choice`): each segment's
        arrays and geometry, the packed ids, and the ids that are no UUID as UTF-8 (a lone
        surrogate kept, so they order as Python orders their texts)."""
        segments = [
            (s.entries, s.offsets, s.first, s.last, s.geometry.bucket_bits,
             s.geometry.tag_bits, s.geometry.row_bits, s.geometry.base)
            for s in self.segments
        ]  # fmt: skip
        others = {row: i.encode("utf-8", "surrogatepass") for row, i in self._other_ids.items()}
        return segments, self._uuids, others

    def order_keys(self, rows: Rows) -> tuple[Hashes, Hashes] | None:
        """Two uint64 per row whose order is the order of the rows' ids as strings (a UUID's
        text is its bytes in hex), or None if one of `rows` has an id of another form."""
        if self._other_ids and any(int(r) in self._other_ids for r in rows):
            return None
        table = np.frombuffer(self._uuids, dtype=">u8").reshape(-1, 2)
        picked = table[rows]
        return picked[:, 0].astype(np.uint64), picked[:, 1].astype(np.uint64)

    @property
    def entries(self) -> int:
        return sum(len(s.entries) for s in self.segments)

    @property
    def nbytes(self) -> int:
        """What the index holds: segments and ids."""
        return sum(s.nbytes for s in self.segments) + len(self._uuids)


class Filler:
    """A build's pairs, a block of rows at a time in one reused buffer.

    A build never holds its pairs twice: rows come a block of 65,536 at a time into one reused
    buffer, and each block is sorted into parts by bucket range, 4 bytes a pair (the row's place
    in its block 16 bits, the tag 16). At the end, each bucket range of every block becomes a
    part of the final index (a segment over that range only) and the block parts it came from
    are dropped, so the build's peak is the index plus one block's buffer.

    The buffer holds each pair as it will be sorted, one uint64 of bucket | tag | row (the row
    less the block's first), made as the pair comes: a block of ~3 M pairs at a million
    entities takes 32 MB, where a hash and a row apiece took 48.
    """

    def __init__(self, index: KeyIndex, block_bits: int = BLOCK_BITS) -> None:
        self._index = index
        self._block_bits = block_bits
        self._keyed = np.empty(64 << block_bits, dtype=np.uint64)
        """Bucket | tag | row of each pair of the block so far (`_keyed`)."""
        self._size = 0
        self._block = 0
        self._parts: list[list[Segment]] = []
        """Per block, its parts by bucket range."""

    def append(self, hashes: Hashes, rows: Rows) -> None:
        """Pairs of rows given after every row appended before (`rows` ascending)."""
        while len(rows):
            block = int(rows[0]) >> self._block_bits
            if block != self._block:
                self._sort_block()
                self._block = block
            cut = int(np.searchsorted(rows, (block + 1) << self._block_bits))
            self._put(hashes[:cut], rows[:cut] - (block << self._block_bits))
            hashes, rows = hashes[cut:], rows[cut:]

    def close(self) -> None:
        """Every block's parts into the index's parts, a bucket range at a time: the block
        parts of a range are dropped once its part is made."""
        self._sort_block()
        blocks, self._parts = self._parts, []
        self._keyed = np.empty(0, dtype=np.uint64)
        if not blocks:
            return
        total = sum(len(part.entries) for parts in blocks for part in parts)
        bucket_bits = max(bucket_bits_for(total), BLOCK_BUCKET_BITS)
        geometry = Geometry.fitting(bucket_bits, self._index.row_bits)
        emptied = Segment(geometry, 0, np.zeros(1, dtype=np.uint32), np.zeros(0, dtype=np.uint32))
        for n in range(BUILD_PARTS):
            size = sum(len(parts[n].entries) for parts in blocks)
            hashes = np.empty(size, dtype=np.uint64)
            rows = np.empty(size, dtype=np.uint32)
            at = 0
            for parts in blocks:
                part = parts[n]
                count = part.all_pairs_into(hashes[at:], rows[at:])
                rows[at : at + count] += np.uint32(part.geometry.base)
                at += count
                parts[n] = emptied  # this range's block parts go as its part is made
            first = n * (1 << bucket_bits) // BUILD_PARTS
            last = (n + 1) * (1 << bucket_bits) // BUILD_PARTS - 1
            part = Segment.of(hashes, rows, geometry, first, last)
            self._index.segments.append(self._index.with_kind_runs(part))
            del hashes, rows

    def _sort_block(self) -> None:
        """The block gathered so far, sorted into its parts (each a copy: freed one by one)."""
        size, self._size = self._size, 0
        if not size:
            return
        geometry = self._geometry()
        keyed = self._keyed[:size]
        keyed.sort()
        width = (1 << BLOCK_BUCKET_BITS) // BUILD_PARTS
        parts = []
        for n in range(BUILD_PARTS):
            first, last = n * width, (n + 1) * width - 1
            bounds = np.array([first, last + 1], dtype=np.uint64) << np.uint64(ENTRY_BITS)
            lo, hi = np.searchsorted(keyed, bounds)
            range_keyed = keyed[lo:hi]
            range_keyed -= np.uint64(first << ENTRY_BITS)
            parts.append(Segment.sorted(range_keyed, geometry, first, last))
        self._parts.append(parts)

    @property
    def nbytes(self) -> int:
        """What the block's buffer holds: the build's peak above the index."""
        return self._keyed.nbytes

    def _geometry(self) -> Geometry:
        """The current block's: its parts' bucket bits, a tag as wide as the entry leaves."""
        tag_bits = HASH_BITS - BLOCK_BUCKET_BITS
        base = self._block << self._block_bits
        return Geometry(BLOCK_BUCKET_BITS, tag_bits, ENTRY_BITS - tag_bits, base)

    def _put(self, hashes: Hashes, rows: Rows) -> None:
        """Pairs of the current block (`rows` less its first), made sortable in the buffer."""
        end = self._size + len(hashes)
        if end > len(self._keyed):
            self._keyed = np.resize(self._keyed, max(end, 2 * len(self._keyed)))
        keyed = self._keyed[self._size : end]
        keyed[:] = hashes
        _keyed(keyed, rows, self._geometry(), 0)
        self._size = end
