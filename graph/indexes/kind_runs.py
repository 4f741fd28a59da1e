"""A segment's long runs of one key's entries, kept again ordered by kind (design §5.4, §8.1).

A bucket keeps a key's entries by row, whatever their entities' kinds, but the rules compare a
mention of a specific kind only with entities of that kind (design §5.2): a key that thousands
of entities of other kinds store would make every lookup of it read all of them, under the write
lock. So a long run is kept a second time by kind, and a lookup reads only the kinds it wants.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

DENSE_RUN = 32
"""Entries of one (bucket, tag) from which a segment keeps them by kind too: far above the
8 to 16 entries of a whole bucket, so only a key that many entities share."""
CHUNK = 1 << 20
"""Entries compared at a time while looking for long runs: bounded temporaries in a merge of
16 M entries."""
KIND_BITS = 32

KindsOf = Callable[[NDArray[np.int64]], NDArray[np.uint32]]
"""The kind code of each of these rows."""


@dataclass(frozen=True, slots=True)
class KindRuns:
    """The long runs of a segment: where each starts, and its entries by kind.

    Where one (bucket, tag) of a segment has at least `DENSE_RUN` entries, the segment keeps that
    run a second time ordered by the kind of each entry's row, so a lookup that wants a few kinds
    reads only their entries, found by binary search; a lookup for a mention of kind `other` still
    reads the whole run (every kind is its own). Shorter runs are read whole: a probe reads at most
    `DENSE_RUN - 1` entries of other kinds per segment. 12 bytes per entry of a long run (its key
    and its place, a uint32 where the segment's entries are fewer than 2**32; 16 when both were
    64-bit), none for the others. Kinds are codes
    (`graph.indexes.row_spellings.RowSpellings.kind_codes`), 0 for unknown.
    """

    starts: NDArray[np.int64]
    """The first entry of each run, ascending."""
    keys: NDArray[np.uint64]
    """Run number << 32 | kind code of each entry of the runs, ascending."""
    places: NDArray[np.integer[Any]]
    """The entry (its place in the segment's entries) of each key."""

    @classmethod
    def of(
        cls,
        entries: NDArray[np.uint32],
        offsets: NDArray[np.uint32],
        row_bits: int,
        rows_of: Callable[[NDArray[np.int64]], NDArray[np.int64]],
        kinds_of: KindsOf,
    ) -> "KindRuns | None":
        """The long runs of a segment's entries (None if there are none); `rows_of` turns
        entry places into rows, `kinds_of` rows into kind codes."""
        starts, ends = long_runs(entries, offsets, row_bits)
        if not len(starts):
            return None
        lengths = ends - starts
        run = np.repeat(np.arange(len(starts), dtype=np.uint64), lengths)
        places = np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(len(run))
        keys = (run << np.uint64(KIND_BITS)) | kinds_of(rows_of(places)).astype(np.uint64)
        order = np.argsort(keys, kind="stable")
        ordered: NDArray[np.integer[Any]] = places[order]
        if len(entries) <= np.iinfo(np.uint32).max:
            ordered = ordered.astype(np.uint32)
        return cls(starts, keys[order], ordered)

    def run_at(self, firsts: NDArray[np.intp]) -> NDArray[np.intp]:
        """For each probe's first entry, the run that starts there, or -1 (a short run)."""
        at = np.searchsorted(self.starts, firsts)
        found = at < len(self.starts)
        found[found] = self.starts[at[found]] == firsts[found]
        return np.where(found, at, -1)

    def bounds(
        self, runs: NDArray[np.intp], codes: NDArray[np.uint32]
    ) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """Where the entries of kind `codes[i]` of run `runs[i]` start and end in `places`."""
        wanted = (runs.astype(np.uint64) << np.uint64(KIND_BITS)) | codes.astype(np.uint64)
        first = np.searchsorted(self.keys, wanted, side="left")
        past = np.searchsorted(self.keys, wanted, side="right")
        return first.astype(np.intp), past.astype(np.intp)

    @property
    def nbytes(self) -> int:
        return self.starts.nbytes + self.keys.nbytes + self.places.nbytes


def long_runs(
    entries: NDArray[np.uint32], offsets: NDArray[np.uint32], row_bits: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Where each run of at least `DENSE_RUN` entries of one bucket and one tag starts and ends.

    A bucket's entries are sorted by tag, so entry `i` opens such a stretch when the entry
    `DENSE_RUN - 1` further has its tag and lies in its bucket; the places that do are
    consecutive within a run, and two runs are at least `DENSE_RUN` apart."""
    span = DENSE_RUN - 1
    found: list[NDArray[np.int64]] = []
    shift = np.uint32(row_bits)
    for start in range(0, max(len(entries) - span, 0), CHUNK):
        end = min(start + CHUNK, len(entries) - span)
        same = (entries[start:end] >> shift) == (entries[start + span : end + span] >> shift)
        found.append(np.flatnonzero(same).astype(np.int64) + start)
    places = np.concatenate(found) if found else np.empty(0, dtype=np.int64)
    if len(places):
        bucket_end = offsets[np.searchsorted(offsets, places, side="right")].astype(np.int64)
        places = places[places + span < bucket_end]
    if not len(places):
        empty = np.empty(0, dtype=np.int64)
        return empty, empty
    opens = np.concatenate(([True], places[1:] != places[:-1] + 1))
    closes = np.concatenate((places[1:] != places[:-1] + 1, [True]))
    return places[opens], places[closes] + DENSE_RUN
