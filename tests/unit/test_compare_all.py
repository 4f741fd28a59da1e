"""`compare_all`, the likenesses of a write with all its candidates at once, must name exactly
what `compare` names pair by pair: the pairs it rules out together (`within_allowance`) are
only those `compare` finds nothing in (design §4.3)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from castlegraph.resolver.drawers import DrawerText, Likeness, compare, compare_all
from castlegraph.resolver.similarity import (
    OSA_MAX_LENGTH,
    levenshtein_allowance,
    similarity_at_least,
    within_allowance,
)
from tests.support.cores import ADVERSARIAL

PROPERTIES = settings(max_examples=300, deadline=None)
LETTERS = st.sampled_from([*"abcdefgh  ", *ADVERSARIAL, "A", "E", ".", "!"])
BASE = st.lists(LETTERS, min_size=0, max_size=120).map("".join)


def _edited(rng: random.Random, text: str, edits: int) -> str:
    """`text` with `edits` random swaps, substitutions, insertions and deletions."""
    chars = list(text)
    for _ in range(edits):
        at = rng.randrange(max(1, len(chars)))
        move = rng.choice(["swap", "sub", "ins", "del", "case"])
        if move == "swap" and at + 1 < len(chars):
            chars[at], chars[at + 1] = chars[at + 1], chars[at]
        elif move == "sub" and chars:
            chars[at] = rng.choice("abcxyz é東")
        elif move == "ins":
            chars.insert(at, rng.choice("abcxyz é東"))
        elif move == "case" and chars:
            chars[at] = chars[at].upper()
        elif chars:
            del chars[at]
    return "".join(chars)


def _one_by_one(new: DrawerText, others: list[tuple[str, DrawerText]], t: float) -> list[Likeness]:
    found = (compare(new, other_id, other, t) for other_id, other in others)
    return [likeness for likeness in found if likeness is not None]


@st.composite
def _write(draw: st.DrawFn) -> tuple[str, list[str], float]:
    """A text and candidates of every kind: itself, near and far copies, re-cased and
    re-punctuated copies, unrelated texts, empty and one-letter texts."""
    base = draw(BASE)
    rng = random.Random(draw(st.integers(0, 2**32)))
    others = []
    for _ in range(draw(st.integers(0, 30))):
        kind = rng.choice(["same", "near", "far", "unrelated", "cased", "short"])
        if kind == "same":
            others.append(base)
        elif kind == "near":
            others.append(_edited(rng, base, rng.randint(1, 4)))
        elif kind == "far":
            others.append(_edited(rng, base, rng.randint(5, max(6, len(base) // 2))))
        elif kind == "unrelated":
            others.append(draw(BASE))
        elif kind == "cased":
            others.append(base.upper() + "!")
        else:
            others.append(rng.choice(["", "a", ".", "ab cd"]))
    threshold = draw(st.sampled_from([0.0, 0.5, 0.8, 0.85, 0.9, 0.95, 1.0]))
    return base, others, threshold


@PROPERTIES
@given(_write())
def test_all_at_once_names_the_likenesses_pair_by_pair_names(
    write: tuple[str, list[str], float],
) -> None:
    base, contents, threshold = write
    new = DrawerText.of(base)
    others = [(f"d{place}", DrawerText.of(content)) for place, content in enumerate(contents)]
    assert compare_all(new, others, threshold) == _one_by_one(new, others, threshold)


def test_long_texts_scored_by_trigrams_are_never_ruled_out_by_the_edit_bound() -> None:
    """Above `OSA_MAX_LENGTH` the score is no edit distance, so no distance rules a pair out:
    a long copy with edits is near by trigrams, beside a short far text."""
    rng = random.Random("long")
    base = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(OSA_MAX_LENGTH + 100))
    copy = _edited(rng, base, 20)
    new = DrawerText.of(base)
    others = [("long", DrawerText.of(copy)), ("short", DrawerText.of("a short far text here"))]
    found = compare_all(new, others, 0.9)
    assert found == _one_by_one(new, others, 0.9)
    assert [likeness.other_id for likeness in found] == ["long"]
    assert found[0].kind == "near"


@PROPERTIES
@given(
    st.text(max_size=60),
    st.lists(st.text(max_size=60), max_size=12),
    st.sampled_from([0.0, 0.5, 0.9, 1.0]),
)
def test_the_pairs_left_out_are_those_the_bound_of_each_pair_rules_out(
    a: str, others: list[str], threshold: float
) -> None:
    """All at once, a pair is left out exactly where `similarity_at_least`'s own bound, with
    the pair's own allowance, rules it out (lone surrogates, empty and equal texts included)."""
    expected = []
    for b in others:
        longest = max(len(a), len(b))
        bounded = bool(a and b and a != b and longest <= OSA_MAX_LENGTH)
        allowed = levenshtein_allowance(longest, threshold)
        expected.append(not (bounded and Levenshtein.distance(a, b) > allowed))
    assert within_allowance(a, others, threshold) == expected
    for b, kept in zip(others, expected, strict=True):
        if not kept:
            assert similarity_at_least(a, b, threshold) is None


def test_a_write_with_no_candidates_has_no_likenesses() -> None:
    assert compare_all(DrawerText.of("some text of a write"), [], 0.9) == []
    assert within_allowance("some text", [], 0.9) == []
