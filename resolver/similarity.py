"""Similarity of two normalised texts (design §4.2).

Up to 2,000 code points the score is edit-based (optimal string alignment), which is what a
person means by "the same text with a typo". Beyond that, OSA costs quadratic time, so the score
switches to the Jaccard index of character trigrams, which is linear and still high for copies.
"""

import math

from rapidfuzz.distance import OSA, Levenshtein

OSA_MAX_LENGTH = 2000
"""Longest text (code points) still scored by edit distance."""

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
    longest = max(len(a), len(b))
    if a and b and a != b and longest <= OSA_MAX_LENGTH:
        allowed = 2 * (math.floor((1.0 - threshold + THRESHOLD_TOLERANCE) * longest) + 1)
        if Levenshtein.distance(a, b, score_cutoff=allowed) > allowed:
            return None
    score = text_similarity(a, b)
    return score if at_least(score, threshold) else None
