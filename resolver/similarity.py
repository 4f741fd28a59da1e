"""Similarity of two normalised texts (design §4.2).

Up to 2,000 code points the score is edit-based (optimal string alignment), which is what a
person means by "the same text with a typo". Beyond that, OSA costs quadratic time, so the score
switches to the Jaccard index of character trigrams, which is linear and still high for copies.
"""

import math
from collections.abc import Sequence

from rapidfuzz import process
from rapidfuzz.distance import OSA, Levenshtein

OSA_MAX_LENGTH = 2000
"""Longest text (code points) still scored by edit distance."""

ONE_PASS_FROM = 6
"""Texts from which `similarities_at_least` bounds them in one pass: below, a call each cost
no more (the pass prepares `a` once, which pays from about five texts)."""

THRESHOLD_TOLERANCE = 1e-9
"""Float64 slack so that exact fractions such as 2 edits in 20 characters (0.9) count."""


def osa_distance(a: str, b: str) -> int:
    """Levenshtein plus adjacent transposition, no substring edited twice (`ca`→`abc` is 3)."""
    return int(OSA.distance(a, b))


def trigrams(text: str) -> set[str]:
    """Every 3-code-point window, spaces included; a shorter text is its own single gram."""
    if len(text) < 3:
        return {text} if text else set()
    return {text[i : i + 3] for i in range(len(text) - 2)}


def trigram_jaccard(a: str, b: str) -> float:
    grams_a, grams_b = trigrams(a), trigrams(b)
    union = grams_a | grams_b
    if not union:
        return 0.0
    return len(grams_a & grams_b) / len(union)


def text_similarity(a: str, b: str) -> float:
    """1.0 for equal non-empty texts, 0.0 if either is empty, else OSA- or trigram-based."""
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    longest = max(len(a), len(b))
    if longest <= OSA_MAX_LENGTH:
        return 1.0 - osa_distance(a, b) / longest
    return trigram_jaccard(a, b)


def at_least(score: float, threshold: float) -> bool:
    """Inclusive threshold comparison with the design notes' tolerance (§4.2)."""
    return score >= threshold - THRESHOLD_TOLERANCE


def similarity_at_least(a: str, b: str, threshold: float) -> float | None:
    """`text_similarity(a, b)` when it reaches `threshold` (`at_least`), else None.

    Cheaper for a pair far apart, which most candidates of a write are: OSA counts a swap of
    neighbours as one edit where Levenshtein counts two, so Levenshtein <= 2 x OSA, and a
    Levenshtein distance above twice the edits the threshold allows (plus one, against
    rounding) rules the pair out. rapidfuzz finds that with a cutoff in about a tenth of the
    time of the OSA distance of two 500-character texts; a pair it lets through is scored as
    before, so the answer is the same.
    """
    allowed = _levenshtein_allowed(a, b, threshold)
    if allowed is not None and Levenshtein.distance(a, b, score_cutoff=allowed) > allowed:
        return None
    return _scored(a, b, threshold)


def similarities_at_least(a: str, others: Sequence[str], threshold: float) -> list[float | None]:
    """`similarity_at_least(a, b, threshold)` for each `b` of `others`, in order.

    The Levenshtein bound of all of them is one rapidfuzz call (`process.extract`, at the widest
    cutoff any of them allows, each then held to its own), which prepares `a` once: a write
    compares its text with ~25 candidates, nearly all far apart, and one call took 57-84 % of
    the time of one call each on pairs captured from `bench cores`'s checkpoint (a checkpoint's
    items/s +7 % under `bench.profile_checkpoints`, 2026-12-07). Under `ONE_PASS_FROM` texts,
    one call each.
    """
    if len(others) < ONE_PASS_FROM:
        return [similarity_at_least(a, b, threshold) for b in others]
    allowed = [_levenshtein_allowed(a, b, threshold) for b in others]
    bounded = [place for place, edits in enumerate(allowed) if edits is not None]
    within: dict[int, int] = {}
    if bounded:
        widest = max(edits for edits in allowed if edits is not None)
        found = process.extract(
            a, [others[place] for place in bounded], scorer=Levenshtein.distance,
            score_cutoff=widest, limit=None,
        )  # fmt: skip
        within = {bounded[at]: int(distance) for _, distance, at in found}
    return [
        _scored(a, b, threshold) if edits is None or within.get(place, edits + 1) <= edits else None
        for place, (b, edits) in enumerate(zip(others, allowed, strict=True))
    ]


def _levenshtein_allowed(a: str, b: str, threshold: float) -> int | None:
    """The Levenshtein distance above which `a` and `b` cannot reach `threshold`
    (`similarity_at_least`), or None where the pair is scored without that bound."""
    longest = max(len(a), len(b))
    if a and b and a != b and longest <= OSA_MAX_LENGTH:
        return 2 * (math.floor((1.0 - threshold + THRESHOLD_TOLERANCE) * longest) + 1)
    return None


def _scored(a: str, b: str, threshold: float) -> float | None:
    score = text_similarity(a, b)
    return score if at_least(score, threshold) else None
