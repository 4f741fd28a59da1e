"""The probe and index keys of one entity key, cut from its code points (design §5.4): the
pure-Python twin of the compiled core's (`castlegraph.resolver.core` binds one of the two).

`resolver.entity_search_keys` says what each set is for. Only code points are deleted, cut and
joined, so the Rust twin answers the same sets; what needs Unicode properties (the accent-folded
form, whether a key is dense with digits) is decided by the caller in Python. Sets, not sorted
lists: a probe's order never mattered, and sorting cost a tenth of deriving them.
"""

import math

from castlegraph.resolver.entity_keys import deletion_keys, sorted_words_key
from castlegraph.resolver.entity_rules import (
    REVIEW_MIN_KEY_LEN,
    REVIEW_TWO_EDIT_MIN_SIMILARITY,
    TYPO_MIN_KEY_LEN,
)
from castlegraph.resolver.entity_segments import MAX_EDITS, partition_keys, partition_probe_keys

DEEP_PROBE_MIN_LEN = math.ceil(2 / (1 - REVIEW_TWO_EDIT_MIN_SIMILARITY) - 1e-9)
"""The shortest mention key whose two-edit probes can find a link: 8 at 0.75.
`resolver.entity_keys.TWO_EDIT_PROBE_MIN_LEN` (6) bounds the shorter key of such a pair.

Two-edit probes are only sent where they can matter. A depth-2 probe key (two code points
deleted from the mention key `a`) meets the stored depth-1 keys of `b` only when `b` is shorter
than `a` (the depth-1 probes already find every other pair they can), so such a pair's longer
key is `a`; a two-edit review link needs `1 - 2/L ≥ 0.75`, hence `a` of ≥ 8 code points. Shorter
mention keys probe one edit only: what depth 2 would add could never qualify for anything."""
TWO_EDIT_PROBE_MAX_LEN = 40
"""Longer keys send no depth-2 deletion probe: it grows with the square of the length (18,000
keys at 200 characters). Their partition probes, a bounded number at any length, find the
shorter stored keys too."""


def one_edit_keys(key: str) -> frozenset[str]:
    """The key and its deletion keys: what meets a one-edit spelling's rows (a key shorter than
    any fuzzy rule takes probes only itself)."""
    if len(key) < REVIEW_MIN_KEY_LEN:
        return frozenset((key,))
    return frozenset(_deletions(key))


def review_keys(key: str) -> frozenset[str]:
    """Every review probe of the key but its accent-folded form (`entity_search_keys`'s
    `_review_probes` says which finds what)."""
    found = set(one_edit_keys(key))
    found.update(_deletions(sorted_words_key(key)))
    length = len(key)
    if DEEP_PROBE_MIN_LEN <= length <= TWO_EDIT_PROBE_MAX_LEN:
        found.update(_pair_deletions(key))
        longer = range(length, length + MAX_EDITS + 1)
    else:
        longer = range(length - MAX_EDITS, length + MAX_EDITS + 1)
    found.update(partition_probe_keys(key, longer))
    return frozenset(found)


def stored_keys(key: str, dense: bool) -> frozenset[str]:
    """The index keys of one spelling but its accent-folded form: its deletion keys, its depth-2
    deletions if `dense` (`entity_segments.is_dense`) else its partition keys, and the deletion
    keys of its sorted words where they differ; a key too short for any fuzzy rule stores only
    itself."""
    if len(key) < REVIEW_MIN_KEY_LEN:
        return frozenset((key,))
    keys = _deletions(key)
    keys.update(_pair_deletions(key) if dense else partition_keys(key))
    ordered = sorted_words_key(key)
    if ordered != key and len(key) >= TYPO_MIN_KEY_LEN:
        keys.update(deletion_keys(ordered))
    return frozenset(keys)


def _deletions(key: str) -> set[str]:
    """The key and every key with one code point deleted (`entity_keys.deletion_keys`, unsorted)."""
    found = {key}
    found.update(key[:i] + key[i + 1 :] for i in range(len(key)))
    return found


def _pair_deletions(key: str) -> list[str]:
    """Every key with two code points deleted."""
    found: list[str] = []
    for i in range(len(key)):
        shorter = key[:i] + key[i + 1 :]
        found.extend(shorter[:j] + shorter[j + 1 :] for j in range(i, len(shorter)))
    return found
