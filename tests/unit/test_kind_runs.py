"""A key shared by many kinds costs a lookup of one kind nothing (design §5.4, §8.1), no database.

The key bomb: one name posted under a thousand new kinds per batch made every later lookup of
it read every entity of every kind that stores its keys, before the kind filter dropped them.
The in-memory index keeps long runs of one key by kind (`graph.indexes.kind_runs`) and the batch's
own index is keyed by kind: a lookup of kind `person` reads the same entries whether 0 or 10,000
entities of other kinds share the key, and answers what the whole lookup answers, less the kinds it
did not want. A lookup for kind `other` still reads them all (every kind is its own).
"""

import uuid
from collections.abc import Collection

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castlegraph.graph.entities.entity_candidates import TWO_EDITS, depth_probes
from castlegraph.graph.indexes import kind_runs
from castlegraph.graph.indexes.key_segments import KeyIndex
from castlegraph.graph.indexes.row_spellings import RowSpellings
from castlegraph.resolver.entity_keys import entity_key
from castlegraph.resolver.entity_model import EntityView
from castlegraph.resolver.entity_rules import OTHER_KIND, compatible_kinds, kinds_compatible
from castlegraph.resolver.entity_search_keys import BatchIndex, spelling_keys

KEY = entity_key("Ada Lovelace")


def _index(
    rows: list[tuple[str, str, Collection[str]]], per_segment: int
) -> tuple[KeyIndex, RowSpellings]:
    """Rows (id, kind, stored keys), a segment per `per_segment`, kinds first as
    `graph.indexes.entity_index` adds them."""
    spellings = RowSpellings()
    keys = KeyIndex(spellings.kind_codes)
    for start in range(0, len(rows), per_segment):
        part = rows[start : start + per_segment]
        spellings.extend([(r[0],) for r in part], [r[1] for r in part])
        keys.add([(r[0], r[2]) for r in part])
    return keys, spellings


def _examined(others: int) -> tuple[int, bool]:
    """Entries a `person` lookup of the key's review probes reads, and whether it answers the
    person alone, with `others` entities of as many other kinds sharing the key (one batch)."""
    person = str(uuid.uuid4())
    stored = spelling_keys(KEY)
    rows = [(person, "person", stored)]
    rows += [(str(uuid.uuid4()), f"kind {n}", stored) for n in range(others)]
    index, spellings = _index(rows, per_segment=len(rows))
    probes = depth_probes(KEY, TWO_EDITS)
    person_only = {0, spellings.code_of("person")}  # 0: rows of unknown kind
    found = index.lookup_rows(probes, wanted=lambda asked: [person_only] * len(asked))
    return index.examined, set(found) == {person}


def test_a_lookup_of_one_kind_reads_none_of_the_other_kinds_that_share_its_key() -> None:
    alone, found_alone = _examined(0)
    crowded, found_crowded = _examined(10_000)
    assert found_alone and found_crowded
    assert crowded == alone == len(depth_probes(KEY, TWO_EDITS) & spelling_keys(KEY))


def test_a_long_run_costs_twelve_bytes_an_entry() -> None:
    """Its key (run, kind) and its place, a uint32 in a segment of fewer than 2**32 entries."""
    stored = {KEY}
    rows = [(str(uuid.uuid4()), f"kind {n % 5}", stored) for n in range(100)]
    index, spellings = _index(rows, per_segment=100)
    [segment] = index.segments
    runs = segment.kind_runs
    assert runs is not None and runs.places.dtype == "uint32"
    assert runs.nbytes == 12 * 100 + runs.starts.nbytes
    found = index.lookup_rows({KEY}, wanted=lambda asked: [{spellings.code_of("kind 3")}] * 1)
    assert set(found) == {rows[n][0] for n in range(3, 100, 5)}


def test_a_lookup_of_every_kind_still_reads_them_all() -> None:
    """Kind `other` is compared with every kind: the run is read whole."""
    stored = spelling_keys(KEY)
    rows = [(str(uuid.uuid4()), f"kind {n}", stored) for n in range(100)]
    index, _ = _index(rows, per_segment=100)
    found = index.lookup_rows({KEY}, wanted=lambda asked: [None] * len(asked))
    assert set(found) == {r[0] for r in rows} and index.examined == 100


kinds = st.sampled_from(["person", "tool", OTHER_KIND, "place"])
stored_keys = st.sets(st.sampled_from(["ab", "abc", "b", "bc", "c"]), min_size=1, max_size=3)


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(st.tuples(kinds, stored_keys), max_size=60),
    probes=st.sets(st.sampled_from(["ab", "abc", "b", "bc", "c", "d"]), min_size=1),
    mention_kinds=st.one_of(st.none(), st.sets(kinds, min_size=1, max_size=2)),
    per_segment=st.integers(1, 60),
    dense_run=st.sampled_from([2, 3, kind_runs.DENSE_RUN]),
)
def test_a_lookup_narrowed_by_kind_answers_the_whole_lookup_less_the_other_kinds(
    rows: list[tuple[str, set[str]]],
    probes: set[str],
    mention_kinds: set[str] | None,
    per_segment: int,
    dense_run: int,
) -> None:
    """Whatever the runs, segments and merges: the narrowed answer holds the whole answer's
    entities of the kinds wanted, each under the same probes, and nothing the whole lacks
    (an entity of another kind, answered by a short run, under some of its probes)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kind_runs, "DENSE_RUN", dense_run)
        entities = [(str(uuid.uuid4()), kind, keys) for kind, keys in rows]
        index, spellings = _index(entities, max(per_segment, 1))
        compatible = compatible_kinds(mention_kinds)
        codes = (
            None
            if compatible is None
            else {0} | {c for k in compatible if (c := spellings.code_of(k)) is not None}
        )
        narrowed = index.lookup_rows(probes, wanted=lambda asked: [codes] * len(asked))
    kind_of = {e[0]: e[1] for e in entities}

    def wanted(answer: dict[str, tuple[list[str], int]]) -> dict[str, list[str]]:
        return {
            i: sorted(found)
            for i, (found, _) in answer.items()
            if compatible is None or kind_of[i] in compatible
        }

    whole = index.lookup_rows(probes)
    assert wanted(narrowed) == wanted(whole)
    # what short runs answer of other kinds stays, under some of its probes: the caller drops it
    assert all(set(found) <= set(whole[i][0]) for i, (found, _) in narrowed.items())


@settings(max_examples=150, deadline=None)
@given(
    found=st.lists(st.tuples(kinds, stored_keys), max_size=30),
    local=st.lists(st.tuples(kinds, stored_keys), max_size=30),
    probes=st.sets(st.sampled_from(["ab", "abc", "b", "bc", "c", "d"]), min_size=1),
    mention_kind=kinds,
)
def test_the_batch_index_answers_a_kind_what_it_answers_all_less_the_other_kinds(
    found: list[tuple[str, set[str]]],
    local: list[tuple[str, set[str]]],
    probes: set[str],
    mention_kind: str,
) -> None:
    index = BatchIndex()
    for n, (kind, keys) in enumerate(found):
        index.add_found(EntityView(f"f{n:03}", f"n{n}", kind, "k"), keys)
    for n, (kind, keys) in enumerate(local):
        index.put_local(EntityView(f"l{n:03}", f"n{n}", kind, "k"), keys)
    everything = index.candidates(probes)
    assert index.candidates(probes, mention_kind) == [
        view for view in everything if kinds_compatible(mention_kind, view.kind)
    ]
    for probe in probes:
        touched = [k for k, keys in local if probe in keys]
        expected = any(kinds_compatible(mention_kind, k) for k in touched)
        assert index.touched(probe, mention_kind) == expected
        assert index.touched(probe) == bool(touched)
