"""The compiled core's map of the drawer index's recent rows by term (`RecentTerms`) against its
Python twin (`graph.indexes.recent_terms.PythonRecentTerms`): the same entries, the same
(probe, row) pairs for any probes in the same order, the same pairs for a segment.

Terms are random and adversarial: hashes as the rules make them, accents, CJK, emoji, a lone
surrogate (no UTF-8: the core takes a term by its Python hash, never its bytes), the empty
term and a long one, each drawer storing some twice. Skipped where the core is not built.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from castlegraph.graph.indexes import recent_terms
from castlegraph.graph.indexes.key_segments import KeyIndex
from castlegraph.graph.indexes.recent_terms import PythonRecentTerms, RecentRows, TermRows
from castlegraph.resolver import core
from tests.support.cores import chosen_back, needs_native

pytestmark = needs_native

POOL = [f"{n:016x}" for n in range(12)] + ["é", "東京", "😀", "\ud800", "", "x" * 300]

terms = st.one_of(st.sampled_from(POOL), st.text(max_size=8))
drawers = st.lists(st.lists(terms, max_size=12), max_size=40)


def _native() -> TermRows:
    native = core.native_module()
    assert native is not None
    made: TermRows = native.RecentTerms()
    return made


def _filled(rows: TermRows, stored: list[list[str]], first: int) -> TermRows:
    for row, drawer in enumerate(stored, start=first):
        rows.add(row, drawer)
    return rows


def _pairs(rows: TermRows) -> list[tuple[int, int]]:
    hashes, held = rows.pairs()
    pairs = zip(
        np.frombuffer(hashes, dtype=np.uint64).tolist(),
        np.frombuffer(held, dtype=np.int64).tolist(),
        strict=True,
    )
    return sorted(pairs)


@settings(max_examples=300, deadline=None)
@given(stored=drawers, names=st.lists(terms, max_size=30), first=st.integers(0, 2**40))
def test_both_maps_hold_the_same_rows(
    stored: list[list[str]], names: list[str], first: int
) -> None:
    native = _filled(_native(), stored, first)
    twin = _filled(PythonRecentTerms(), stored, first)
    assert native.entries == twin.entries == sum(map(len, stored))
    assert native.held(names) == twin.held(names)
    assert _pairs(native) == _pairs(twin)


def test_a_term_holds_each_drawer_once_its_rows_ascending() -> None:
    native = _filled(_native(), [["a", "b", "a"], ["b"], [], ["b", "a", "b"]], 10)
    places, rows = native.held(["c", "b", "a", "b"])
    assert places == [1, 1, 1, 2, 2, 3, 3, 3]
    assert rows == [10, 11, 13, 10, 13, 10, 11, 13]
    assert native.entries == 7
    assert _pairs(native) == sorted(
        [(hash(t) % 2**64, r) for t, r in [("a", 10), ("b", 10), ("b", 11), ("a", 13), ("b", 13)]]
    )


def test_the_recent_rows_take_the_map_of_the_core_chosen() -> None:
    with chosen_back():
        core.choose("python")
        assert isinstance(recent_terms.term_rows(), PythonRecentTerms)
        core.choose("native")
        assert type(recent_terms.term_rows()).__name__ == "RecentTerms"


def test_a_segment_holds_what_the_map_held() -> None:
    """Once `RECENT_ROWS` drawers came, their pairs are a segment of the index, and the map is
    empty again: a probe finds the same rows in the segment as it found held."""
    with chosen_back():
        core.choose("native")
        keys = KeyIndex()
        recent = RecentRows(keys)
        stored = [(f"d{n}", ["a", f"t{n}", "a"]) for n in range(recent_terms.RECENT_ROWS - 1)]
        recent.add(stored)
        probes, rows = recent.held(["a", "t3"])
        assert (probes[-2:], rows[-1]) == ([0, 1], 3)
        assert len(rows) == recent_terms.RECENT_ROWS
        recent.add([("last", ["a"])])
        assert recent.held(["a", "t3"]) == ([], [])
        assert recent.entries == 0
        assert keys.entries == 2 * recent_terms.RECENT_ROWS - 1
        found = keys.lookup(["t3"])
        assert found == {"d3": ["t3"]}
