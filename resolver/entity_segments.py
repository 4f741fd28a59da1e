"""Partition keys: two-edit review candidates whichever key is the longer (design §5.3, §5.4).

The mention's depth-2 probe meets stored depth-1 deletion keys only when the stored key is the
shorter (``resolver.entity_keys``); depth 2 on the stored side would cost ~L²/2 rows a spelling.
Instead a spelling of ≥ 8 code points stores 15 partition keys, after PassJoin's pigeonhole (Li
et al., VLDB 2011), or its depth-2 neighbourhood in a dense family. Both only fetch candidates.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import combinations

from castlegraph.resolver.entity_keys import deletion_neighbourhood

SEGMENTS = 6
PARTITION_MIN_LEN = 8
"""The shortest stored key given partition keys: a two-edit link needs a longer key of ≥ 8,
and a shorter stored key is found by the mention's depth-2 deletion probe."""
MAX_EDITS = 2
DENSE_MAX_LEN = 16
"""The longest key with a digit that stores its depth-2 deletion neighbourhood (`is_dense`):
longer keys keep enough digits in their partition keys to stay selective."""
_PAIRS = tuple(combinations(range(SEGMENTS), 2))


def _bounds(length: int) -> list[int]:
    """Segment starts for a key of ``length`` code points, then ``length``."""
    return [i * length // SEGMENTS for i in range(SEGMENTS + 1)]


def _tag(length: int, s: int, t: int, prefix: str, middle: str, suffix: str) -> str:
    """One partition key. Entity keys hold no ``:`` or ``|`` (separators), so a partition key
    never equals a deletion key of an ordinary name; a raw key of punctuation only may collide,
    which only fetches one more candidate for the rules to reject."""
    return f"{length}:{s}{t}:{prefix}|{middle}|{suffix}"


def partition_keys(key: str) -> list[str]:
    """The 15 keys stored for a spelling of ≥ ``PARTITION_MIN_LEN`` code points (else none).

    The key is cut into ``SEGMENTS`` segments by its length alone, each widened by one
    character to the right so a transposition across a boundary lies inside one. Two OSA edits
    lie in at most two widened segments, so for every pair ``s < t`` the key with those two cut
    out (prefix, middle, suffix; tagged with the length, ``s`` and ``t``) survives them. The
    keys keep about two thirds of a name (first and last names both): selective at a million.
    """
    length = len(key)
    if length < PARTITION_MIN_LEN:
        return []
    bounds = _bounds(length)
    keys: list[str] = []
    for s, t in _PAIRS:
        end_s = min(bounds[s + 1] + 1, length)
        end_t = min(bounds[t + 1] + 1, length)
        middle = key[end_s : bounds[t]] if end_s < bounds[t] else ""
        keys.append(_tag(length, s, t, key[: bounds[s]], middle, key[end_t:]))
    return keys


def is_dense(key: str) -> bool:
    """Whether ``key`` indexes two-edit candidates by deletions instead of partitions.

    Two thirds of a short name is not selective where every combination exists: digits
    (``RFC 8975`` keeps ``rfc`` and a space once two segments are cut out, and would meet every
    stored ``RFC ····``). Such a key stores its depth-2 deletion neighbourhood (~L²/2 rows: 37
    at 8, 137 at 16), which the mention's probes (``resolver.entity_search_keys``) meet exactly
    when the keys share a subsequence of ``max(len) - 2``, as every pair within two edits does.
    """
    return PARTITION_MIN_LEN <= len(key) <= DENSE_MAX_LEN and any(ch.isdigit() for ch in key)


def two_edit_keys(key: str) -> list[str]:
    """What a spelling stores to be met by a mention two edits away when it is the longer (or
    as long) key: its depth-2 deletion neighbourhood if it is dense, else its partition keys."""
    if is_dense(key):
        return deletion_neighbourhood(key, MAX_EDITS)
    return partition_keys(key)


def _shifts(difference: int) -> Iterator[int]:
    """Length changes of the first segment's edits, given the total: ``|d1| + |d2| ≤ 2``."""
    for d1 in range(-MAX_EDITS, MAX_EDITS + 1):
        if abs(d1) + abs(difference - d1) <= MAX_EDITS:
            yield d1


@lru_cache(maxsize=4096)
def _probe_plan(length: int, stored_length: int) -> tuple[tuple[str, int, int, int, int], ...]:
    """Where `_probes_for_length` cuts a key of `length` for a stored length: per probe key its
    tag head and the slices (prefix end, middle start and end, suffix start). Only lengths
    decide the cuts, so they are worked out once per pair of lengths, not per mention."""
    bounds = _bounds(stored_length)
    plan: list[tuple[str, int, int, int, int]] = []
    for s, t in _PAIRS:
        end_s = min(bounds[s + 1] + 1, stored_length)
        end_t = min(bounds[t + 1] + 1, stored_length)
        prefix_len, suffix_len = bounds[s], stored_length - end_t
        if prefix_len + suffix_len > length:
            continue
        head = f"{stored_length}:{s}{t}:"
        suffix_start = length - suffix_len
        middle_len = bounds[t] - end_s
        if middle_len <= 0:
            plan.append((head, prefix_len, 0, 0, suffix_start))
            continue
        for d1 in _shifts(length - stored_length):
            start = end_s + d1
            if start >= prefix_len and start + middle_len <= suffix_start:
                plan.append((head, prefix_len, start, start + middle_len, suffix_start))
    return tuple(plan)


def _probes_for_length(key: str, stored_length: int) -> list[str]:
    """The `_tag` of every cut of `_probe_plan`, written straight from the key's slices."""
    return [
        f"{head}{key[:prefix]}|{key[start:end]}|{key[suffix:]}"
        for head, prefix, start, end, suffix in _probe_plan(len(key), stored_length)
    ]


def partition_probe_keys(key: str, stored_lengths: Iterable[int]) -> set[str]:
    """Keys that meet the partition keys of every stored key of those lengths within two edits
    of ``key`` (lengths below ``PARTITION_MIN_LEN`` store none and are skipped).

    A mention two edits from a stored key agrees with it outside the two widened segments that
    hold the edits: its own prefix and suffix, and the middle shifted by what the first
    segment's edits inserted or deleted. So it writes every pair's cut for every stored length
    and every possible shift: at most 3 × 15 × 3 keys, whatever the key length.
    """
    found: set[str] = set()
    for stored_length in stored_lengths:
        if stored_length >= PARTITION_MIN_LEN and abs(stored_length - len(key)) <= MAX_EDITS:
            found.update(_probes_for_length(key, stored_length))
    return found
