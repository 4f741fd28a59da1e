"""The drawers the drawer index took in since its last segment, by term (`RecentRows`), until
`RECENT_ROWS` of them make a segment of their own (`KeyIndex.push_since`); the map by term is
the compiled core's (`RecentTerms`) where it runs, else its Python twin (`PythonRecentTerms`).
"""

import itertools
from collections.abc import Sequence
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from castlegraph.graph.indexes.key_segments import KeyIndex, Rows, key_hashes
from castlegraph.resolver import core as chosen_core

RECENT_ROWS = 512
"""Drawers written since the last segment that are kept by term in a map (~10 MB at most)."""


class TermRows(Protocol):
    """Each term's rows, ascending, as `RecentTerms` and `PythonRecentTerms` hold them."""

    @property
    def entries(self) -> int:
        """Terms added, a repeat within a drawer included."""
        ...

    def add(self, row: int, terms: Sequence[str]) -> None:
        """One drawer's stored terms at `row`, which follows every row added before; a term it
        stores twice counts it once."""

    def held(self, names: Sequence[str]) -> tuple[list[int], list[int]]:
        """The (probe, row) pairs held for `names`, as two lists: each probe's rows ascending."""
        ...

    def pairs(self) -> tuple[bytes, bytes]:
        """Every (hash, row) pair held, as native uint64 and int64 bytes, in no set order."""
        ...


class PythonRecentTerms:
    """The compiled core's `RecentTerms` in Python: its twin."""

    def __init__(self) -> None:
        self._oldest: dict[str, int] = {}
        """Each term's first row here. Most terms have one row: a dict of ints is made and
        searched in C (`dict.fromkeys`, a set of common keys), where a list per term had
        Python append to each (~12 % of a checkpoint's batch)."""
        self._later: dict[str, list[int]] = {}
        """The terms with more rows than one: those after the first, ascending."""
        self.entries = 0

    def add(self, row: int, terms: Sequence[str]) -> None:
        oldest, later = self._oldest, self._later
        mine = dict.fromkeys(terms, row)
        for term in oldest.keys() & mine.keys():
            later.setdefault(term, []).append(row)
            del mine[term]
        oldest.update(mine)
        self.entries += len(terms)

    def held(self, names: Sequence[str]) -> tuple[list[int], list[int]]:
        common = self._oldest.keys() & names
        probes: list[int] = []
        held: list[int] = []
        if not common:
            return probes, held
        for place in itertools.compress(range(len(names)), map(common.__contains__, names)):
            name = names[place]
            more = self._later.get(name, ())
            probes.extend(itertools.repeat(place, 1 + len(more)))
            held.append(self._oldest[name])
            held.extend(more)
        return probes, held

    def pairs(self) -> tuple[bytes, bytes]:
        oldest, later = self._oldest, self._later
        counts = np.fromiter(map(len, later.values()), dtype=np.int64, count=len(later))
        hashes = np.concatenate(
            (key_hashes(list(oldest)), np.repeat(key_hashes(list(later)), counts))
        )
        rows = np.fromiter(
            itertools.chain(oldest.values(), itertools.chain.from_iterable(later.values())),
            dtype=np.int64,
            count=len(hashes),
        )
        return hashes.tobytes(), rows.tobytes()


def term_rows() -> TermRows:
    """An empty map of the core chosen (`castlegraph.resolver.core`)."""
    native = chosen_core.segments
    return PythonRecentTerms() if native is None else native.RecentTerms()


class RecentRows:
    """The drawers added since the index's last segment (`KeyIndex` `keys`), by term, until
    `RECENT_ROWS` of them make a segment.

    A segment per write, merged while the newer is not much the smaller, left an index grown by
    writes ~11 segments at 100 k drawers, and a write's probes paid ~25 µs of numpy calls in
    each of the small ones, whatever their size (six under 25,000 entries: ~150 µs of a write's
    ~700). Here a probe is one map lookup, with all 64 bits of its hash.

    The map (`term_rows`) is keyed by each term's Python hash in the core, by the term in the
    twin: a drawer adds ~160 terms and its write probes ~100, which took the twin ~55 and ~17 µs
    (a segment's share included), the core ~20 and ~3.5. The two differ only where two terms
    share all 64 bits of their hash, which the segments take as one term already."""

    def __init__(self, keys: KeyIndex) -> None:
        self._keys = keys
        self._first = keys.rows
        self._terms = term_rows()

    @property
    def entries(self) -> int:
        return self._terms.entries

    def add(self, drawers: Sequence[tuple[str, Sequence[str]]]) -> None:
        """Drawers (id, stored terms), after every row the index holds."""
        for drawer_id, terms in drawers:
            self._terms.add(self._keys.row_for(drawer_id), terms)
        if self._keys.rows - self._first >= RECENT_ROWS:
            self._segment()

    def _segment(self) -> None:
        """The rows gathered as one segment; the map starts again."""
        hash_bytes, row_bytes = self._terms.pairs()
        hashes = np.frombuffer(hash_bytes, dtype=np.uint64).copy()  # a segment sorts in place
        rows = np.frombuffer(row_bytes, dtype=np.int64) - self._first
        self._keys.push_since(self._first, hashes, rows)
        self._first, self._terms = self._keys.rows, term_rows()

    def held(self, names: Sequence[str]) -> tuple[list[int], list[int]]:
        """The (probe, row) pairs held here, as two lists: each probe's rows ascending."""
        return self._terms.held(names)

    def after(
        self, found: NDArray[np.intp], rows: Rows, names: Sequence[str]
    ) -> tuple[NDArray[np.intp], Rows]:
        """The (probe, row) pairs of the segments (`KeyIndex.hits`), then those held here:
        later rows, each probe's ascending, as a segment after the others gives them."""
        probes, held = self._terms.held(names)
        if not probes:
            return found, rows
        return (
            np.concatenate((found, np.asarray(probes, dtype=np.intp))),
            np.concatenate((rows, np.asarray(held, dtype=np.int64))),
        )
