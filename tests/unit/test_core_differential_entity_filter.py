"""The compiled core's weighing of an index lookup's (probe, row) hits against its pure-Python
twin (`resolver.entity_hits.may_use`), on random and adversarial keys: accents and combining
marks, digits, CJK, emoji, long and empty keys, words reordered, keys two and three edits
apart, swapped neighbours; senders and rows unknown (None), rows with aliases. The rows' keys
as the compiled core reads them from the index's blob (`RowSpellings.of_rows`) against `of`.
Then the in-memory index's lookup itself under either core. Skipped where the core is not built.
"""

from array import array

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray
from rapidfuzz.distance import OSA

from castlegraph.graph.indexes import row_spellings
from castlegraph.graph.indexes.entity_index import EntityIndex, _Respelling
from castlegraph.graph.indexes.row_spellings import Record, RowSpellings
from castlegraph.resolver import core as chosen_core
from castlegraph.resolver import entity_hits, entity_pairs
from castlegraph.resolver.entity_search_keys import probe_keys
from tests.support.cores import KeyCoreBound, characters, entity_keys

native = chosen_core.native_module()
pytestmark = pytest.mark.skipif(native is None, reason="the compiled core is not built")

keys = entity_keys(max_size=30, max_long=90)


@st.composite
def edited(draw: st.DrawFn, key: str) -> str:
    """`key` after up to four random edits (insert, delete, substitute, swap neighbours) or
    with its words shuffled: near keys are where the answers turn."""
    if " " in key and draw(st.booleans()):
        return " ".join(draw(st.permutations(key.split(" "))))
    chars = list(key)
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["insert", "delete", "substitute", "swap"]))
        at = draw(st.integers(0, len(chars)))
        letter = draw(characters)
        if op == "insert":
            chars.insert(at, letter)
        elif op == "delete" and at < len(chars):
            del chars[at]
        elif op == "substitute" and at < len(chars):
            chars[at] = letter
        elif op == "swap" and at + 1 < len(chars):
            chars[at], chars[at + 1] = chars[at + 1], chars[at]
    return "".join(chars)


Lookup = tuple[list[str | None], list[tuple[str, ...] | None], NDArray[np.intp], NDArray[np.intp]]
"""The senders, the rows' keys, and each pair's probe and row."""


@st.composite
def lookups(draw: st.DrawFn) -> Lookup:
    """Senders (None: several keys sent the probe), rows' keys (None: unknown, else a name key
    and its aliases' keys, most near a sender) and the pairs between them."""
    senders: list[str | None] = draw(st.lists(st.one_of(keys, st.none()), min_size=1, max_size=6))
    known = [s for s in senders if s is not None] or [""]
    row_keys: list[tuple[str, ...] | None] = []
    for _ in range(draw(st.integers(1, 8))):
        if draw(st.integers(0, 5)) == 0:
            row_keys.append(None)
            continue
        spellings = [
            draw(st.one_of(keys, st.sampled_from(known).flatmap(edited)))
            for _ in range(draw(st.integers(1, 4)))
        ]
        row_keys.append(tuple(spellings))
    count = draw(st.integers(0, 20))
    pair_probe = draw(st.lists(st.integers(0, len(senders) - 1), min_size=count, max_size=count))
    pair_row = draw(st.lists(st.integers(0, len(row_keys) - 1), min_size=count, max_size=count))
    return senders, row_keys, np.array(pair_probe, np.intp), np.array(pair_row, np.intp)


@settings(max_examples=800, deadline=None)
@given(lookups())
def test_the_masks_are_equal(lookup: Lookup) -> None:
    assert native is not None
    senders, row_keys, pair_probe, pair_row = lookup
    twin = entity_hits.may_use(senders, row_keys, pair_probe, pair_row)
    compiled = native.may_use(senders, row_keys, pair_probe, pair_row)
    assert compiled is not None
    assert np.frombuffer(compiled, dtype=np.bool_).tolist() == twin.tolist()


@settings(max_examples=600, deadline=None)
@given(keys.flatmap(lambda key: st.tuples(st.just(key), st.one_of(keys, edited(key)))))
def test_one_pair_is_weighed_as_may_pair_weighs_it(pair: tuple[str, str]) -> None:
    """The compiled mask of one pair is `may_pair`'s answer."""
    assert native is not None
    mention, key = pair
    one = np.zeros(1, np.intp)
    compiled = native.may_use([mention], [(key,)], one, one)
    assert compiled == bytes([entity_pairs.may_pair(mention, key)])


@pytest.mark.parametrize(
    ("mention", "key", "distance"),
    [
        ("katarina", "katerina", 1),
        ("katarina", "katerino", 2),
        ("katarina", "kterino", 3),
        ("ab", "ba", 1),  # neighbours swapped: one edit
        ("abcd", "badc", 2),
        ("ca", "abc", 3),  # no span edited twice (Damerau's distance is 2)
        ("jösé", "jose", 2),
        ("東京タワー", "京東タワー", 1),
        ("🙂🏽a", "a🙂🏽", 2),
        ("rfc 8975", "rfc 8957", 1),
        ("", "ab", 2),
        ("", "abc", 3),
        ("a" * 60, "a" * 58, 2),
        ("a" * 60, "a" * 57, 3),
    ],
)
def test_distances_two_and_three_apart(mention: str, key: str, distance: int) -> None:
    """Two edits is kept, three is not (unless the words reorder), as rapidfuzz's OSA says."""
    assert native is not None
    assert OSA.distance(mention, key) == distance
    one = np.zeros(1, np.intp)
    assert native.may_use([mention], [(key,)], one, one) == bytes([distance <= 2])


@pytest.mark.parametrize(
    ("mention", "key", "kept"),
    [
        ("lovelace ada", "ada lovelace", True),
        ("lovelace ada", "ada lovelac", True),  # reordered, then one edit
        ("lovelace ada", "ada lovela", False),  # two edits after sorting, and far apart
        ("grace brewster hopper", "hopper grace brewstr", True),
        ("abcdefgh", "hgfedcba", False),  # one word each: sorting changes neither
    ],
)
def test_words_in_another_order(mention: str, key: str, kept: bool) -> None:
    assert native is not None
    one = np.zeros(1, np.intp)
    assert entity_pairs.may_pair(mention, key) is kept
    assert native.may_use([mention], [(key,)], one, one) == bytes([kept])


def test_an_alias_keeps_a_row_its_name_does_not() -> None:
    assert native is not None
    senders: list[str | None] = ["jon smythe", None]
    rows: list[tuple[str, ...] | None] = [("adalbert", "jon smith"), ("adalbert",), None]
    pair_probe = np.array([0, 0, 0, 1], np.intp)
    pair_row = np.array([0, 1, 2, 1], np.intp)
    expected = [True, False, True, True]
    assert entity_hits.may_use(senders, rows, pair_probe, pair_row).tolist() == expected
    compiled = native.may_use(senders, rows, pair_probe, pair_row)
    assert compiled is not None
    assert np.frombuffer(compiled, dtype=np.bool_).tolist() == expected


def test_the_native_core_binds_its_weighing_and_python_its_twin() -> None:
    """Chosen, the compiled core weighs the hits (the base left it to the Python twin)."""
    with KeyCoreBound("native"):
        assert chosen_core.may_use is not entity_hits.may_use
        senders: list[str | None] = ["ada lovelace"]
        rows: list[tuple[str, ...] | None] = [("ada lovelace",), ("zzz",)]
        mask = chosen_core.may_use(senders, rows, np.zeros(2, np.intp), np.arange(2))
        assert mask.dtype == np.bool_
        assert mask.tolist() == [True, False]
    with KeyCoreBound("python"):
        assert chosen_core.may_use is entity_hits.may_use


def test_a_key_with_a_lone_surrogate_is_left_to_the_twin() -> None:
    """Python holds such a key (a JSON escape can make one); UTF-8 cannot: the core answers
    None, and the bound function the twin's mask."""
    assert native is not None
    one = np.zeros(1, np.intp)
    for senders, rows in [(["ab\ud800cd"], [("abxcd",)]), (["abxcd"], [("abc", "ab\ud800cd")])]:
        assert native.may_use(senders, rows, one, one) is None
        with KeyCoreBound("native"):
            assert chosen_core.may_use(senders, rows, one, one).tolist() == [True]


def test_a_place_out_of_range_is_an_error() -> None:
    assert native is not None
    with pytest.raises(IndexError):
        native.may_use(["ab"], [("ab",)], np.array([1], np.intp), np.array([0], np.intp))


row_texts = st.one_of(keys, st.sampled_from([row_spellings.SEPARATOR, row_spellings.RECORD, ""]))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(row_texts, max_size=4),
            st.one_of(st.none(), st.sampled_from(["person", "org"])),
            st.one_of(st.none(), st.lists(row_texts, min_size=1, max_size=3)),
        ),
        min_size=1,
        max_size=12,
    ),
    st.data(),
    st.booleans(),
)
def test_rows_keys_are_read_as_of_reads_them(
    rows: list[tuple[list[str], str | None, list[str] | None]], data: st.DataObject, wide: bool
) -> None:
    """Rows of keys, kinds and records (unknown ones too: no keys, a separator in a key or in
    the record), their ends 4 bytes each or 8, asked for in any order, repeated."""
    assert native is not None
    spellings = RowSpellings()
    for keys, kind, record in rows:
        spellings.append(
            keys, kind, None if record is None else Record(record[0], tuple(record[1:]), None)
        )
    if wide:
        spellings._ends = array("Q", spellings._ends)
    asked = data.draw(st.lists(st.integers(0, len(rows) - 1), max_size=20))
    wanted = np.array(asked, dtype=np.int64)
    expected = [spellings.of(row) for row in asked]
    assert native.row_keys(spellings._blob, spellings._ends, wanted) == expected
    with KeyCoreBound("native"):
        assert spellings.of_rows(wanted) == expected
    with KeyCoreBound("python"):
        assert spellings.of_rows(wanted) == expected


def test_a_row_outside_the_index_is_an_error() -> None:
    assert native is not None
    spellings = RowSpellings()
    spellings.append(["ada"])
    with pytest.raises(IndexError):
        native.row_keys(spellings._blob, spellings._ends, np.array([1], np.int64))


@settings(max_examples=60, deadline=None)
@given(st.lists(keys, min_size=1, max_size=12), st.lists(keys, min_size=1, max_size=6))
def test_the_index_answers_the_same_under_either_core(
    stored: list[str], mentions: list[str]
) -> None:
    """`EntityIndex.lookup_spelled` over rows of these keys (pairs of them as a name and an
    alias; the first entity respelled, so its older row answers as its latest) answers the same
    hits whichever core weighs them (in no particular order)."""
    answers = []
    for choice in ("python", "native"):
        with KeyCoreBound(choice):
            index = EntityIndex(block_bits=2)
            index._take(  # the index as a write adds entities
                [
                    _respelling(f"e{n}", (key, *stored[n + 1 : n + 2]))
                    for n, key in enumerate(stored)
                ]
            )
            index._take([_respelling("e0", (stored[0], mentions[0]))])  # respelled: a new row
            needs = {m: probe_keys(m, two_edits=True) for m in mentions}
            hits, sent = index.lookup_spelled(needs)
            answers.append(
                (
                    {i: (sorted(probes), *rest) for i, (probes, *rest) in hits.items()},
                    {probe: sorted(senders) for probe, senders in sent.items()},
                )
            )
    assert answers[0] == answers[1]


def _respelling(entity_id: str, spellings: tuple[str, ...]) -> _Respelling:
    return _Respelling(entity_id, spellings, "person", Record(spellings[0], spellings[1:], None))
