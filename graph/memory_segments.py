"""The data of the in-memory candidate index (`graph.memory_index`): rows and sorted segments.

Each indexed entity gets a row; its id is kept as the 16 bytes of its UUID (any other id in a
small dict). Each (key, row) pair is one uint64, the key's 64-bit hash in the high bits and the
row in the low `row_bits`, so a segment is one sorted array: entries whose hash shares the high
bits sit side by side and the row comes back with a mask. What a batch or a catch-up adds is a
segment of its own; segments merge while the newer is not much the smaller, so there are few.
"""

import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Packed = NDArray[np.uint64]

SEGMENT_MAX_ENTRIES = 16_000_000
"""Segments merge up to this size (128 MB): a merge copies both, so this bounds its peak."""


def key_hashes(keys: Sequence[str]) -> NDArray[np.uint64]:
    """Python's own string hash (64 bits, seeded per process: the index lives in one)."""
    return np.fromiter(map(hash, keys), dtype=np.int64, count=len(keys)).view(np.uint64)


def _mask(row_bits: int) -> np.uint64:
    return np.uint64((1 << row_bits) - 1)


@dataclass(frozen=True, slots=True)
class Segment:
    packed: Packed
    """Sorted: hash high bits | row."""
    row_bits: int

    @classmethod
    def of(cls, hashes: Packed, rows: NDArray[np.int64], row_bits: int) -> "Segment":
        """Packs in place: `hashes` becomes the segment (no copy at a million entities)."""
        np.bitwise_and(hashes, ~_mask(row_bits), out=hashes)
        np.bitwise_or(hashes, rows.astype(np.uint64), out=hashes)
        hashes.sort()
        return cls(hashes, row_bits)

    def widened(self, row_bits: int) -> Packed:
        """The entries with `row_bits` for the row: the hash bits between lose their say."""
        if row_bits == self.row_bits:
            return self.packed
        return self.packed & ~(_mask(row_bits) & ~_mask(self.row_bits))

    def find(self, hashes: Packed) -> tuple[NDArray[np.intp], NDArray[np.int64]]:
        """(probe position, row) of every entry whose hash matches a probe's."""
        mask = _mask(self.row_bits)
        high = hashes & ~mask
        lo = np.searchsorted(self.packed, high, side="left")
        hi = np.searchsorted(self.packed, high | mask, side="right")
        counts = hi - lo
        hit = np.flatnonzero(counts)
        counts = counts[hit]
        probes = np.repeat(hit, counts)
        starts = np.repeat(lo[hit] - np.cumsum(counts) + counts, counts)
        positions = starts + np.arange(len(probes))
        return probes, (self.packed[positions] & mask).astype(np.int64)


def _merged(a: Segment, b: Segment) -> Segment:
    """One copy of both (the peak of a merge), sorted in place: two sorted runs, which the
    stable sort (timsort) merges in one pass."""
    row_bits = max(a.row_bits, b.row_bits)
    packed = np.concatenate((a.widened(row_bits), b.widened(row_bits)))
    packed.sort(kind="stable")
    return Segment(packed, row_bits)


class KeyIndex:
    """Rows and segments: the data of an index, without its sequence bookkeeping."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []
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
        rows = np.repeat(np.arange(first, self.rows, dtype=np.int64), counts)
        self.push(Segment.of(hashes, rows, self.row_bits))

    def push(self, segment: Segment) -> None:
        """Append a segment; merge the last two while the newer is not much the smaller, so
        there are few segments (about log2 of the largest over the smallest)."""
        self.segments.append(segment)
        while len(self.segments) >= 2:
            older, newer = self.segments[-2], self.segments[-1]
            size = len(older.packed) + len(newer.packed)
            if len(newer.packed) * 2 < len(older.packed) or size > SEGMENT_MAX_ENTRIES:
                return
            self.segments[-2:] = [_merged(older, newer)]

    def lookup(self, probes: Collection[str]) -> dict[str, list[str]]:
        """Entity id → the probes among `probes` it stores (each id once)."""
        return {entity_id: keys for entity_id, (keys, _) in self.lookup_rows(probes).items()}

    def lookup_rows(self, probes: Collection[str]) -> dict[str, tuple[list[str], int]]:
        """Entity id → the probes it stores and its latest row (a respelled entity's has all
        its keys), each id once.

        The probe hashes are sorted first: numpy's binary search starts each key where the
        previous one ended, so sorted keys walk a segment once instead of jumping about it.
        """
        ordered = list(probes)
        if not self.segments or not ordered:
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
        by_id: dict[str, tuple[list[str], int]] = {}
        groups = zip(starts.tolist(), ends.tolist(), rows[starts].tolist(), strict=True)
        for start, end, row in groups:  # rows ascending: the latest row of an entity comes last
            keys = [ordered[p] for p in matched[start:end]]
            entity_id = self.id_of(row)
            if entity_id in by_id:  # respelled: added again under another row
                keys = sorted(set(keys).union(by_id[entity_id][0]))
            else:
                keys.sort()
            by_id[entity_id] = (keys, row)
        return by_id

    @property
    def entries(self) -> int:
        return sum(len(s.packed) for s in self.segments)
