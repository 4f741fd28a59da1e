"""The data of the in-memory candidate index (`graph.memory_index`): rows, blocks, buckets.

Each indexed entity gets a row; its id is kept as the 16 bytes of its UUID (any other id in a
small dict). Rows fall in blocks of `2**block_bits` (65,536). A segment holds the (key, row)
pairs of rows of one block, bucketed by the top `BUCKET_BITS` of the key's 64-bit hash: an
offsets array (uint32, one per bucket) says where each bucket's entries start, and an entry is
one uint32, the next `32 - block_bits` bits of the hash (the tag) over the row's place in its
block. So a key costs 4 bytes and a bucket table 1 MB per block (about 4.3 bytes a key with
~48 keys per entity), where a uint64 of hash and row took 8 — at a million entities, 210 MB
instead of 390.

The price is hash bits: a probe's bucket and tag are 34 of its 64 at the default sizes, so an
entry whose hash agrees on those is answered under a probe it does not store (a row of another
key): about `entries / 2**34` rows per probe (0.003 at 48 M entries). That only over-fetches:
the rules measure every candidate's real distance, and each entity within reach of a probe is
found through its own keys anyway.

A lookup reads, for each probe, its bucket's entries in each block (about a dozen in a full
block) and keeps those whose tag matches. What a batch or a catch-up adds is a segment of its
own in the block of its rows; segments of a block merge while the newer is not much the
smaller, so a block has few, and a full block's merge copies at most its own 13 MB. A build
adds whole blocks (`KeyIndex.extend`), so it never merges at all.
"""

import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Hashes = NDArray[np.uint64]
Rows = NDArray[np.int64]

BUCKET_BITS = 18
"""Buckets per segment: 2**18 uint32 offsets (1 MB) hold about 12 entries each in a full block
of ~3 M entries; each bit more halves the entries read per probe and doubles the table."""
BLOCK_BITS = 16
"""Rows per block (65,536): the row's place in its block takes these bits of an entry, and the
tag the other 16."""
ENTRY_BITS = 32


def key_hashes(keys: Sequence[str]) -> Hashes:
    """Python's own string hash (64 bits, seeded per process: the index lives in one)."""
    return np.fromiter(map(hash, keys), dtype=np.int64, count=len(keys)).view(np.uint64)


@dataclass(frozen=True, slots=True)
class Segment:
    """Entries of rows `base` to `base + 2**block_bits - 1`, by bucket."""

    base: int
    block_bits: int
    offsets: NDArray[np.uint32]
    """`2**BUCKET_BITS + 1`: bucket b's entries are `entries[offsets[b]:offsets[b + 1]]`."""
    entries: NDArray[np.uint32]
    """Sorted within each bucket: tag (the hash bits after the bucket's) | place in the block."""

    @classmethod
    def of(
        cls, hashes: Hashes, places: NDArray[np.uint32], base: int, block_bits: int
    ) -> "Segment":
        """The pairs (`hashes[i]`, row `base + places[i]`) of one block; `hashes` is consumed.

        One uint64 per pair while building (bucket | tag | place), computed in `hashes`'s own
        memory and sorted once; the entries are its low 32 bits.
        """
        keyed = hashes
        tags = _tags(keyed, block_bits)
        tags <<= np.uint64(block_bits)
        np.bitwise_or(tags, places, out=tags, casting="unsafe")
        keyed >>= np.uint64(64 - BUCKET_BITS)
        keyed <<= np.uint64(ENTRY_BITS)
        keyed |= tags
        del tags
        return cls._sorted(keyed, base, block_bits)

    @classmethod
    def _sorted(cls, keyed: Hashes, base: int, block_bits: int) -> "Segment":
        keyed.sort()
        starts = np.arange((1 << BUCKET_BITS) + 1, dtype=np.uint64) << np.uint64(ENTRY_BITS)
        offsets = np.searchsorted(keyed, starts).astype(np.uint32)
        return cls(base, block_bits, offsets, keyed.astype(np.uint32))

    def keyed(self) -> Hashes:
        """The entries with their bucket again (bucket | entry): what a merge sorts."""
        buckets = np.repeat(
            np.arange(len(self.offsets) - 1, dtype=np.uint64), np.diff(self.offsets)
        )
        return (buckets << np.uint64(ENTRY_BITS)) | self.entries.astype(np.uint64)

    def find(self, hashes: Hashes) -> tuple[NDArray[np.intp], Rows]:
        """(probe position, row) of every entry in a probe's bucket with the probe's tag."""
        buckets = _bucket(hashes)
        lo = self.offsets[buckets].astype(np.intp)
        counts = self.offsets[buckets + 1].astype(np.intp) - lo
        hit = np.flatnonzero(counts)
        counts = counts[hit]
        probes = np.repeat(hit, counts)
        starts = np.repeat(lo[hit] - np.cumsum(counts) + counts, counts)
        entries = self.entries[starts + np.arange(len(probes))]
        tags = _tags(hashes, self.block_bits).astype(np.uint32)
        same = (entries >> np.uint32(self.block_bits)) == tags[probes]
        places = entries[same] & np.uint32((1 << self.block_bits) - 1)
        return probes[same], places.astype(np.int64) + self.base

    @property
    def nbytes(self) -> int:
        return self.offsets.nbytes + self.entries.nbytes


def _bucket(hashes: Hashes) -> NDArray[np.intp]:
    return (hashes >> np.uint64(64 - BUCKET_BITS)).astype(np.intp)


def _tags(hashes: Hashes, block_bits: int) -> Hashes:
    """The `32 - block_bits` hash bits after the bucket's."""
    tag_bits = ENTRY_BITS - block_bits
    shifted = hashes >> np.uint64(64 - BUCKET_BITS - tag_bits)
    return shifted & np.uint64((1 << tag_bits) - 1)


def _merged(a: Segment, b: Segment) -> Segment:
    """Both segments of one block as one: a copy of both, sorted (the peak of a merge)."""
    return Segment._sorted(np.concatenate((a.keyed(), b.keyed())), a.base, a.block_bits)


class KeyIndex:
    """Rows and segments: the data of an index, without its sequence bookkeeping."""

    def __init__(self, block_bits: int = BLOCK_BITS) -> None:
        self.block_bits = block_bits
        self.blocks: dict[int, list[Segment]] = {}
        self.rows = 0
        self._uuids = bytearray()
        self._other_ids: dict[int, str] = {}

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
        return str(uuid.UUID(bytes=bytes(self._uuids[16 * row : 16 * row + 16])))

    def add(self, entities: Sequence[tuple[str, Collection[str]]]) -> None:
        """Entities (id, stored keys) as new segments: a batch's, or a catch-up's."""
        if not entities:
            return
        first = self.rows
        for entity_id, _ in entities:
            self.row_for(entity_id)
        counts = np.fromiter((len(k) for _, k in entities), dtype=np.int64, count=len(entities))
        hashes = key_hashes([key for _, keys in entities for key in keys])
        self.extend(hashes, np.repeat(np.arange(first, self.rows, dtype=np.int64), counts))

    def extend(self, hashes: Hashes, rows: Rows) -> None:
        """Pairs of rows already given (`row_for`), `rows` ascending: a segment per block."""
        if not len(rows):
            return
        first, last = int(rows[0]) >> self.block_bits, int(rows[-1]) >> self.block_bits
        for block in range(first, last + 1):
            base = block << self.block_bits
            lo, hi = np.searchsorted(rows, (base, base + (1 << self.block_bits)))
            if hi > lo:
                places = (rows[lo:hi] - base).astype(np.uint32)
                segment = Segment.of(hashes[lo:hi].copy(), places, base, self.block_bits)
                self._push(block, segment)

    def _push(self, block: int, segment: Segment) -> None:
        """Append a segment to its block; merge the last two while the newer is not much the
        smaller, so a block has few segments (about log2 of the largest over the smallest)."""
        segments = self.blocks.setdefault(block, [])
        segments.append(segment)
        while len(segments) >= 2:
            older, newer = segments[-2], segments[-1]
            if len(newer.entries) * 2 < len(older.entries):
                return
            segments[-2:] = [_merged(older, newer)]

    @property
    def segments(self) -> list[Segment]:
        return [segment for block in sorted(self.blocks) for segment in self.blocks[block]]

    def lookup(self, probes: Collection[str]) -> dict[str, list[str]]:
        """Entity id → the probes among `probes` it stores (each id once).

        The probe hashes are sorted first, so each segment's buckets are read in order.
        """
        ordered = list(probes)
        if not self.blocks or not ordered:
            return {}
        hashes = key_hashes(ordered)
        order = np.argsort(hashes)
        needles = hashes[order]
        found = [segment.find(needles) for segment in self.segments]
        positions = order[np.concatenate([p for p, _ in found])]
        rows = np.concatenate([r for _, r in found])
        if not len(rows):
            return {}
        by_row = np.argsort(rows, kind="stable")
        rows, positions = rows[by_row], positions[by_row]
        starts = np.flatnonzero(np.concatenate(([True], rows[1:] != rows[:-1])))
        ends = np.append(starts[1:], len(rows))
        matched = positions.tolist()
        by_id: dict[str, list[str]] = {}
        groups = zip(starts.tolist(), ends.tolist(), rows[starts].tolist(), strict=True)
        for start, end, row in groups:
            keys = [ordered[p] for p in matched[start:end]]
            entity_id = self.id_of(row)
            if entity_id in by_id:  # respelled: added again under another row
                keys += by_id[entity_id]
            # two keys of one row can share a bucket and a tag: a probe is answered once
            by_id[entity_id] = sorted(set(keys)) if len(keys) > 1 else keys
        return by_id

    def filler(self) -> "Filler":
        return Filler(self)

    @property
    def entries(self) -> int:
        return sum(len(s.entries) for s in self.segments)

    @property
    def nbytes(self) -> int:
        """What the index holds: segments, ids."""
        return sum(s.nbytes for s in self.segments) + len(self._uuids)


class Filler:
    """A build's pairs, gathered a block at a time in one reused buffer and pushed as the
    block's only segment: no copy of each page's arrays, no merge (design §5.4, *Memory*)."""

    def __init__(self, index: KeyIndex, capacity: int = 1 << 22) -> None:
        self._index = index
        self._hashes = np.empty(capacity, dtype=np.uint64)
        self._places = np.empty(capacity, dtype=np.uint32)
        self._size = 0
        self._block = 0

    def append(self, hashes: Hashes, rows: Rows) -> None:
        """Pairs of rows given after every row appended before (`rows` ascending)."""
        bits = self._index.block_bits
        while len(rows):
            block = int(rows[0]) >> bits
            if block != self._block:
                self.close()
                self._block = block
            cut = int(np.searchsorted(rows, (block + 1) << bits))
            self._put(hashes[:cut], rows[:cut] - (block << bits))
            hashes, rows = hashes[cut:], rows[cut:]

    def close(self) -> None:
        """Push the block gathered so far (the end of a build, or a block full)."""
        if self._size:
            index = self._index
            base = self._block << index.block_bits
            size = self._size
            segment = Segment.of(self._hashes[:size], self._places[:size], base, index.block_bits)
            index._push(self._block, segment)
            self._size = 0

    def _put(self, hashes: Hashes, places: Rows) -> None:
        end = self._size + len(hashes)
        if end > len(self._hashes):
            grown = max(end, 2 * len(self._hashes))
            self._hashes = np.resize(self._hashes, grown)
            self._places = np.resize(self._places, grown)
        self._hashes[self._size : end] = hashes
        self._places[self._size : end] = places
        self._size = end
