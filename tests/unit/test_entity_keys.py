"""Entity keys, kinds and deletion keys (design §5.1, §5.2, §5.4, §11)."""

from __future__ import annotations

import itertools

import pytest
from rapidfuzz.distance import OSA, LCSseq, Levenshtein

from castlegraph.resolver.entity_keys import (
    TWO_EDIT_PROBE_MIN_LEN,
    deletion_keys,
    deletion_neighbourhood,
    entity_key,
    folded_key,
    normalize_kind,
    review_probe_keys,
)
from castlegraph.resolver.errors import CastlegraphError, EmptyLabel


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Ada Lovelace", "ada lovelace"),
        ("ADA LOVELACE", "ada lovelace"),
        ("  Ada   Lovelace ", "ada lovelace"),
        ("Node.js", "nodejs"),
        ("NodeJS", "nodejs"),
        ("Node JS", "node js"),  # a space separates: one edit from ``nodejs``, not equal
        ("C++", "c++"),
        ("C#", "c#"),
        ("C", "c"),
        ("C# / .NET", "c# net"),
        ("café", "café"),
        ("cafe", "cafe"),
        ("O'Brien", "obrien"),
        ("O\u2019Brien", "obrien"),
        ("OBrien", "obrien"),
        ("Jean-Luc", "jean luc"),
        ("AT&T", "at t"),
        ("Python 3.11", "python 311"),
        ("SR-2023-052", "sr 2023 052"),
        ("v2", "v2"),
        ("ÉCOLE", "école"),
        ("ΟΔΟΣ", "οδοσ"),  # per-character lower-casing: no final sigma
        ("İstanbul", "i\u0307stanbul"),  # full per-character mapping (2 code points)
        ("...", "..."),  # nothing survives: the trimmed, lower-cased name
        ("  ?! ", "?!"),
        ("--AB--", "ab"),
        ("हिन्दी", "हिन्दी"),  # combining vowel signs stay with their letters
    ],
)
def test_entity_key(name: str, key: str) -> None:
    assert entity_key(name) == key


def test_nfc_composed_and_decomposed_are_one_key() -> None:
    composed, decomposed = "Jos\u00e9", "Jose\u0301"
    assert composed != decomposed
    assert entity_key(composed) == entity_key(decomposed) == "jos\u00e9"


def test_spellings_that_must_differ() -> None:
    keys = [entity_key(n) for n in ("C++", "C", "C#")]
    assert len(set(keys)) == 3
    assert entity_key("café") != entity_key("cafe")
    assert entity_key("Node JS") != entity_key("NodeJS")
    assert OSA.distance(entity_key("Node JS"), entity_key("NodeJS")) == 1


@pytest.mark.parametrize(("kind", "normal"), [("Person", "person"), ("  TOOL ", "tool")])
def test_normalize_kind(kind: str, normal: str) -> None:
    assert normalize_kind(kind) == normal


@pytest.mark.parametrize("kind", ["", "   ", "\t\n"])
def test_blank_kind_is_an_empty_label(kind: str) -> None:
    with pytest.raises(EmptyLabel) as caught:
        normalize_kind(kind)
    assert isinstance(caught.value, CastlegraphError)
    assert caught.value.code == "domain::empty_label"
    assert caught.value.field == "kind"


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("abc", ["ab", "abc", "ac", "bc"]),
        ("aab", ["aa", "aab", "ab"]),
        ("a", ["", "a"]),
        ("", [""]),
    ],
)
def test_deletion_keys(key: str, expected: list[str]) -> None:
    assert deletion_keys(key) == expected


def test_deletion_keys_find_every_one_edit_pair_of_the_examples() -> None:
    pairs = [
        ("kubernets", "kubernetes"),  # insertion
        ("maeia lopez", "maria lopez"),  # substitution
        ("jonh", "john"),  # adjacent transposition
        ("jeanluc", "jean luc"),  # a space
    ]
    for a, b in pairs:
        assert set(deletion_keys(a)) & set(deletion_keys(b)), (a, b)


# Every string of length 0-4 over a small alphabet: the neighbourhood claims of the
# `deletion_keys` and `review_probe_keys` docstrings are checked exhaustively, not sampled.
_SMALL = ["".join(t) for n in range(5) for t in itertools.product("ab ", repeat=n)]


def _meets(a: list[str], b: list[str]) -> bool:
    return not set(a).isdisjoint(b)


def test_one_edit_pairs_always_share_a_deletion_key() -> None:
    d1 = {s: deletion_keys(s) for s in _SMALL}
    for a, b in itertools.product(_SMALL, repeat=2):
        meets = _meets(d1[a], d1[b])
        if OSA.distance(a, b) <= 1:
            assert meets, (a, b)
        if meets:  # a superset, but never wider than two Levenshtein edits
            assert Levenshtein.distance(a, b) <= 2, (a, b)


def test_probe_depth_two_against_stored_depth_one_is_the_lcs_condition() -> None:
    d1 = {s: deletion_neighbourhood(s, 1) for s in _SMALL}
    d2 = {s: deletion_neighbourhood(s, 2) for s in _SMALL}
    for probe, stored in itertools.product(_SMALL, repeat=2):
        lcs = LCSseq.similarity(probe, stored)
        expected = lcs >= max(len(probe) - 2, len(stored) - 1)
        assert _meets(d2[probe], d1[stored]) == expected, (probe, stored)
        if OSA.distance(probe, stored) <= 2:
            assert _meets(d2[probe], d2[stored]), (probe, stored)  # depth 2 both sides: complete
            if len(stored) < len(probe):  # the probe alone finds every shorter stored key
                assert _meets(d2[probe], d1[stored]), (probe, stored)


@pytest.mark.parametrize(
    ("probe", "stored", "found"),
    [
        ("katerinas", "katrina", True),  # stored shorter by two: two deletions
        ("katerina", "katrino", True),  # stored shorter: deletion + substitution
        ("katerina", "aktrina", True),  # stored shorter: deletion + transposition
        ("abcxdefg", "bcxdefgy", True),  # equal length: a deletion and an insertion
        ("katerina", "katorino", False),  # the gap: two substitutions
        ("katrina", "katerinx", False),  # the gap: stored longer (insertion + substitution)
        ("katrina", "katerinas", False),  # the gap: two insertions
    ],
)
def test_review_probe_keys_documented_reach(probe: str, stored: str, found: bool) -> None:
    assert OSA.distance(probe, stored) == 2
    assert _meets(review_probe_keys(probe), deletion_keys(stored)) is found


def test_review_probe_keys_widen_only_where_two_edits_can_link() -> None:
    long_enough = "x" * (TWO_EDIT_PROBE_MIN_LEN - 1) + "y"
    assert review_probe_keys("maria") == deletion_keys("maria")
    assert set(deletion_keys(long_enough)) < set(review_probe_keys(long_enough))
    assert len(review_probe_keys("abcdefgh")) == 1 + 8 + 28


@pytest.mark.parametrize(
    ("key", "folded"),
    [
        ("jönköping", "jonkoping"),
        ("ångström", "angstrom"),
        ("straße", "straße"),  # no decomposition: ß, ł and ø are letters of their own
        ("łódź", "łodz"),
        ("nodejs", "nodejs"),
        ("ﬁ", "ﬁ"),  # compatibility forms are not accents
    ],
)
def test_folded_keys_drop_accents_only(key: str, folded: str) -> None:
    assert folded_key(key) == folded
