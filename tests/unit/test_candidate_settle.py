"""`settle`: each branch's best candidates among the drawers still current, reading the next
ranked ones where the first read left a branch short (design §4.5).

It reads the ranked ids a window at a time (one slice of the index's lazy ranking, not one
id after another); spelled out here one id at a time, as it was first written, the two must
keep, in the same order, the same candidates, and ask for the same drawers in the same reads.
"""

from collections.abc import Callable, Sequence
from typing import overload

from hypothesis import given
from hypothesis import strategies as st

from castlegraph.graph.drawers.candidates import TERM_CANDIDATES, Candidate, first_ids, settle
from castlegraph.graph.indexes.drawer_index import Choice

IDS = [f"d{number:03d}" for number in range(90)]


def _candidate(drawer_id: str) -> Candidate:
    return Candidate(drawer_id, f"text of {drawer_id}", 12, None)


def _settle_one_by_one(
    choice: Choice,
    first: dict[str, Candidate],
    more: Callable[[list[str]], dict[str, Candidate]],
    whole: dict[str, Candidate],
) -> list[Candidate]:
    """The reference: each ranked id read on its own."""
    asked = set(first_ids(choice))
    found = dict(first)
    chosen: dict[str, Candidate] = {}
    for ranked in (choice.terms, choice.bands):
        taken = 0
        for place, drawer_id in enumerate(ranked):
            if taken == TERM_CANDIDATES:
                break
            if drawer_id not in asked:
                ids = [i for i in ranked[place : place + TERM_CANDIDATES] if i not in asked]
                asked.update(ids)
                found.update(more(ids))
            candidate = found.get(drawer_id)
            if candidate is not None:
                taken += 1
                if drawer_id not in whole:
                    chosen.setdefault(drawer_id, candidate)
    return list(chosen.values())


class _SlicedOnly(Sequence[str]):
    """A ranking that may be read by slices only, as `settle` reads the index's."""

    def __init__(self, ids: list[str]) -> None:
        self._ids = ids

    def __len__(self) -> int:
        return len(self._ids)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if not isinstance(index, slice):
            raise AssertionError("read one id at a time")
        return self._ids[index]


RANKED = st.lists(st.sampled_from(IDS), unique=True, max_size=70)


@given(
    terms=RANKED,
    bands=RANKED,
    current=st.sets(st.sampled_from(IDS)),
    whole=st.sets(st.sampled_from(IDS), max_size=5),
)
def test_settle_by_windows_keeps_and_reads_what_one_id_at_a_time_does(
    terms: list[str], bands: list[str], current: set[str], whole: set[str]
) -> None:
    """Drawers outside `current` are closed or hidden: the first read left them out, and a
    later read does not find them either."""
    reads: dict[str, list[list[str]]] = {"windows": [], "one by one": []}

    def reader(name: str) -> Callable[[list[str]], dict[str, Candidate]]:
        def more(ids: list[str]) -> dict[str, Candidate]:
            reads[name].append(list(ids))
            return {i: _candidate(i) for i in ids if i in current}

        return more

    choice = Choice(terms, bands)
    first = {i: _candidate(i) for i in first_ids(choice) if i in current}
    kept = {i: _candidate(i) for i in whole}
    by_windows = settle(
        Choice(_SlicedOnly(terms), _SlicedOnly(bands)), first, reader("windows"), kept
    )
    one_by_one = _settle_one_by_one(choice, first, reader("one by one"), kept)
    assert by_windows == one_by_one
    assert reads["windows"] == reads["one by one"]


def test_settle_reads_past_a_short_window_until_the_branch_is_full() -> None:
    """The first 20 terms hold 5 drawers that are gone: the next 20 are read in one read, and
    the branch still keeps 20."""
    terms = IDS[:40]
    gone = set(IDS[3:8])
    current = set(IDS) - gone
    asked: list[list[str]] = []

    def more(ids: list[str]) -> dict[str, Candidate]:
        asked.append(ids)
        return {i: _candidate(i) for i in ids if i in current}

    choice = Choice(_SlicedOnly(terms), _SlicedOnly([]))
    first = {i: _candidate(i) for i in IDS[:20] if i in current}
    chosen = settle(choice, first, more, {})
    assert [c.id for c in chosen] == [i for i in terms if i not in gone][:TERM_CANDIDATES]
    assert asked == [IDS[20:40]]
