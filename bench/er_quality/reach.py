"""What the rules of design §5.3 can reach: the yardstick recall is measured against.

A true variant can only be caught through a spelling of its true entity that was seen before
it (the graph holds nothing else). `reach` says which rule could connect the two, or none
(`beyond`: no resolver built on these rules can, whatever its index).
"""

from collections.abc import Iterable
from typing import Literal

from rapidfuzz.distance import OSA

from castlegraph.resolver.entity_keys import sorted_words_key
from castlegraph.resolver.entity_rules import (
    REVIEW_MIN_KEY_LEN,
    REVIEW_TWO_EDIT_MIN_SIMILARITY,
    TYPO_MIN_KEY_LEN,
)

Reach = Literal["spelling", "one_edit", "two_edits", "word_order", "beyond"]
REACHES: tuple[Reach, ...] = ("spelling", "one_edit", "two_edits", "word_order", "beyond")
_TOLERANCE = 1e-9


def _pair_reach(key: str, seen: str) -> Reach:
    if key == seen:
        return "spelling"
    shorter, longer = sorted((len(key), len(seen)))
    if shorter < REVIEW_MIN_KEY_LEN:
        return "beyond"
    distance = OSA.distance(key, seen, score_cutoff=2)
    if distance == 1:
        return "one_edit"
    if distance == 2:
        similar = 1 - 2 / longer >= REVIEW_TWO_EDIT_MIN_SIMILARITY - _TOLERANCE
        return "two_edits" if similar else "beyond"
    if shorter >= TYPO_MIN_KEY_LEN:
        reordered = OSA.distance(sorted_words_key(key), sorted_words_key(seen), score_cutoff=1)
        if reordered <= 1:
            return "word_order"
    return "beyond"


def reach(key: str, seen_keys: Iterable[str]) -> Reach:
    """The strongest rule that connects `key` to one of `seen_keys` (`REACHES` order): the
    same key (`spelling`: rules 1-3), one edit (`one_edit`: the typo rule, or a review link),
    two edits at key similarity ≥ 0.75 (`two_edits`), the same words in another order
    (`word_order`), or nothing (`beyond`).

    `seen_keys` are the spellings the stream showed, not those a resolver kept: a spelling lost
    to an earlier wrong merge still counts as reachable, so that mistake shows as a miss.
    Guards (digits, known words) are ignored: a guarded pair still gets a review link."""
    best = len(REACHES) - 1
    for seen in seen_keys:
        best = min(best, REACHES.index(_pair_reach(key, seen)))
        if best == 0:
            break
    return REACHES[best]
