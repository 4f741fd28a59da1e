"""design §4.3: verdicts between a new drawer and one candidate, and link ranking."""

import pytest

from castlegraph.resolver.drawers import (
    ANCHOR_TERMS,
    DrawerText,
    Likeness,
    anchor_terms,
    compare,
    may_be_near,
    near_lengths,
    strongest,
)
from castlegraph.resolver.similarity import OSA_MAX_LENGTH


def verdict(new: str, old: str, threshold: float = 0.9) -> str | None:
    likeness = compare(DrawerText.of(new), "old", DrawerText.of(old), threshold)
    return likeness.kind if likeness else None


@pytest.mark.parametrize(
    ("new", "old", "kind"),
    [
        ("Use port 8080", "Use port 8080", "exact"),
        ("!!!", "!!!", "exact"),  # same bytes even with an empty normal form
        ("Use port 8080.", "use PORT 8080", "normalized"),
        ("use port 8080", "use port 8081", "near"),  # 13 chars: near, linked, never merged
        ("port 8080 ok", "port 8081 ok", "near"),  # 12 chars: the smallest near text
        ("port 8080 o", "port 8081 o", None),  # 11 chars: only exact or normalized
        ("!!!", "???", None),  # empty normal forms never match by fingerprint
        ("completely different", "nothing alike at all", None),
    ],
)
def test_verdicts(new: str, old: str, kind: str | None) -> None:
    assert verdict(new, old) == kind


def test_the_twelve_character_rule_applies_to_both_texts() -> None:
    long_text = "abcdefghijkl"  # 12
    short_text = "abcdefghijk"  # 11, one deletion away
    assert verdict(long_text, short_text, 0.5) is None
    assert verdict(short_text, long_text, 0.5) is None
    assert verdict(long_text, "abcdefghijkX", 0.5) == "near"


def test_exact_similarity_is_one_and_signals_are_set() -> None:
    likeness = compare(DrawerText.of("Same text here"), "x", DrawerText.of("Same text here"), 0.9)
    assert likeness == Likeness("x", "exact", 1.0, same_hash=True, same_fingerprint=True)


def test_near_threshold_is_inclusive() -> None:
    a, b = "abcdefghijklmnopqrst", "Xbcdefghijklmnopqrs" + "Y"  # 2 edits in 20 chars: 0.9
    assert verdict(a, b, 0.9) == "near"
    assert verdict(a, b, 0.91) is None


def test_strongest_orders_by_kind_then_similarity_then_id_and_keeps_five() -> None:
    links = [
        Likeness("n2", "near", 0.95, False, False),
        Likeness("n1", "near", 0.95, False, False),
        Likeness("n3", "near", 0.99, False, False),
        Likeness("f1", "normalized", 1.0, False, True),
        Likeness("e1", "exact", 1.0, True, True),
        Likeness("n4", "near", 0.91, False, False),
        Likeness("n5", "near", 0.90, False, False),
    ]
    assert [link.other_id for link in strongest(links)] == ["e1", "f1", "n3", "n1", "n2"]


def test_anchor_terms_are_scoped_to_the_room_and_bounded() -> None:
    text = DrawerText.of(" ".join(f"word{i:03d}" for i in range(ANCHOR_TERMS + 10))).normalized
    terms = anchor_terms("wing", "room", text)
    assert len(terms) == ANCHOR_TERMS
    assert set(terms).isdisjoint(anchor_terms("wing", "other room", text))
    assert terms == anchor_terms("wing", "room", text)
    assert anchor_terms("wing", "room", "") == []


def test_anchor_terms_are_word_pairs_that_a_typo_mostly_keeps() -> None:
    original = anchor_terms("w", "r", "deploy the staging cluster on friday after lunch")
    retyped = anchor_terms("w", "r", "deploy the stagign cluster on friday after lunch")
    assert len(original) == 7  # eight words, seven adjacent pairs
    assert len(set(original) & set(retyped)) == 5  # only the two pairs around the typo differ
    assert anchor_terms("w", "r", "kubernetes") == anchor_terms("w", "r", "kubernetes")
    assert len(anchor_terms("w", "r", "kubernetes")) == 1  # a one-word text: the word


def test_a_length_gap_alone_can_rule_out_a_near_copy() -> None:
    assert may_be_near(100, 90, 0.9)  # 1 - 10/100 = 0.9: still possible
    assert not may_be_near(100, 89, 0.9)
    assert may_be_near(3000, 10, 0.9)  # trigram-scored lengths have no such bound


@pytest.mark.parametrize("threshold", [0.9, 0.95, 0.8, 0.5])
def test_near_lengths_are_the_lengths_may_be_near_lets_through(threshold: float) -> None:
    """The candidate statements filter by this range (or any length above OSA_MAX_LENGTH)."""
    for length in [*range(0, 300), *range(1700, 2300, 7)]:
        shortest, longest = near_lengths(length, threshold)
        for other in [*range(0, 400), *range(1500, 3000, 3)]:
            in_range = shortest <= other <= longest or other > OSA_MAX_LENGTH
            assert in_range == may_be_near(length, other, threshold), (length, other)
