"""Character evidence for near copies that survives a typo in every word (design §4.5).

Word pairs miss a copy whose typos touch every pair, so a text is also indexed by **bands** of
a MinHash sketch of its character 5-grams, keyed with its room and a length bucket. Nothing here
is random at run time: the same text gives the same keys on every machine and in every process.
"""

import hashlib
import math
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

SHINGLE = 5
"""Characters per shingle. Longer shingles are rarer in a room; shorter ones survive typos
better: 5 keeps short texts findable and long ones apart (measured with `bench drawers`)."""

BANDS = 64
"""Bins of the sketch, and bands: band i is the values of bins i and i + 1 (cyclically). Two
values per band keep a retyped 3-word text's bands in common (three lose some); overlapping
bands give each pair of texts 64 chances for the cost of 64 bins (32 disjoint bands missed
12 in 3,000 texts with a typo in every word)."""

BUCKET_RATIO = 0.81
"""Texts within a ratio 0.9 of each other's length fall in the same bucket or the next one."""

LONG_TEXT = 1800
"""From this many code points all texts share one bucket: beyond 2,000 similarity is a
trigram Jaccard, which bounds the sets of pieces, not the lengths."""

_BINS = BANDS
_DENSIFY_TRIES = 16
_PRIME = (1 << 61) - 1
"""The Mersenne prime of the 5-gram hash: values below it, bins from its low bits."""


def _hash64(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


_MULTIPLIER = _hash64("shingle multiplier") % (_PRIME - 1) + 1
_OFFSET = _hash64("shingle offset") % _PRIME


_PROBES: tuple[tuple[int, ...], ...] = tuple(
    tuple(_hash64(f"bin {i} try {t}") % _BINS for t in range(1, _DENSIFY_TRIES + 1))
    for i in range(_BINS)
)
"""Where an empty bin borrows its value, tried in order (fixed: derived from its index)."""


@lru_cache(maxsize=64)  # a write asks twice: for its probes and for its own index terms
def sketch(normalized: str) -> tuple[str, ...]:
    """One value per bin: the least hash of the bin's 5-grams, or a borrowed one.

    One-permutation hashing (one hash per 5-gram, the minimum per bin), so a write costs one
    hash per character, not one per character and band; the hash is 2-universal
    (`a·x + b mod 2⁶¹ − 1` over the 5-gram's bytes), cheaper in Python than a digest per
    5-gram. An ASCII text is hashed with numpy, all its 5-grams at once (`_ascii_least`).

    The text is padded with a space on both sides so its first and last words make shingles
    of their own. An empty bin takes the value of the first non-empty bin on its probe list
    (tagged with the try, so a borrowed value never equals a real one), as in Shrivastava's
    optimal densification; both texts of a pair borrow alike where their bins agree.
    """
    padded = f" {normalized} "
    least = _ascii_least(padded) if padded.isascii() else _least(padded)
    found: list[int | None] = [None if value == _PRIME else value for value in least]
    return tuple(_bin_value(found, i) for i in range(_BINS))


def _least(padded: str) -> list[int]:
    """The least hash per bin of a text's 5-grams (`_PRIME` where a bin saw none)."""
    shingles = {padded[i : i + SHINGLE] for i in range(max(1, len(padded) - SHINGLE + 1))}
    least: list[int] = [_PRIME] * _BINS  # above every value: a bin still at it saw no 5-gram
    as_int = int.from_bytes
    for shingle in shingles:
        value = (as_int(shingle.encode(), "little") * _MULTIPLIER + _OFFSET) % _PRIME
        index, rest = value % _BINS, value // _BINS
        if rest < least[index]:  # noqa: PLR1730 - cheaper than min() per 5-gram
            least[index] = rest
    return least


_U64 = np.uint64
_MULTIPLIER_HIGH, _MULTIPLIER_LOW = _MULTIPLIER >> 32, _MULTIPLIER & 0xFFFF_FFFF
_LOW_20 = (1 << 20) - 1


def _shifted_mod(value: NDArray[np.uint64], shift: int) -> NDArray[np.uint64]:
    """`value · 2^shift` reduced below 2⁶⁴ and congruent modulo 2⁶¹ − 1 (2⁶¹ ≡ 1), for values
    below 2⁵² and shifts up to 52: the bits pushed past 61 come back at the bottom."""
    keep = 61 - shift
    return (value >> _U64(keep)) + ((value & _U64((1 << keep) - 1)) << _U64(shift))


def _ascii_least(padded: str) -> list[int]:
    """`_least` of an ASCII text, every 5-gram at once: a 5-gram's bytes make an integer below
    2⁴⁰, and its product with the multiplier is taken in four partial products of at most 52
    bits each, so 64-bit arithmetic gives exactly the value Python's integers give."""
    if len(padded) < SHINGLE:
        return _least(padded)
    chars = np.frombuffer(padded.encode("ascii"), dtype=np.uint8).astype(np.uint64)
    count = len(chars) - SHINGLE + 1
    grams = chars[:count].copy()
    for offset in range(1, SHINGLE):
        grams |= chars[offset : offset + count] << _U64(8 * offset)
    high, low = grams >> _U64(20), grams & _U64(_LOW_20)
    total = (
        _shifted_mod(high * _U64(_MULTIPLIER_HIGH), 52)
        + _shifted_mod(high * _U64(_MULTIPLIER_LOW), 20)
        + _shifted_mod(low * _U64(_MULTIPLIER_HIGH), 32)
        + low * _U64(_MULTIPLIER_LOW)
        + _U64(_OFFSET)
    )  # five terms below 2⁶¹ each: no overflow
    values = total % _U64(_PRIME)
    least = np.full(_BINS, _PRIME, dtype=np.uint64)
    np.minimum.at(least, (values % _U64(_BINS)).astype(np.intp), values // _U64(_BINS))
    return [int(value) for value in least.tolist()]


def _bin_value(least: list[int | None], index: int) -> str:
    own = least[index]
    if own is not None:
        return format(own, "x")
    for attempt, other in enumerate(_PROBES[index], start=1):
        borrowed = least[other]
        if borrowed is not None:
            return f"{borrowed:x}.{attempt}"
    for step in range(1, _BINS):  # every probe empty (a very short text): the next full bin
        borrowed = least[(index + step) % _BINS]
        if borrowed is not None:
            return f"{borrowed:x}+{step}"
    return "-"


def length_bucket(length: int) -> int:
    """Log-scale bucket of a normal form's length; one bucket for long texts.

    Texts near each other are within 10 % in length, and the bucket keeps a band of two common
    pieces from collecting every long text of the room."""
    return int(math.log(min(max(length, 1), LONG_TEXT)) / -math.log(BUCKET_RATIO))


def stored_buckets(length: int) -> list[int]:
    """Where a text of `length` code points is indexed: its own bucket and the next one up,
    so a write looks its bands up in one bucket (`probe_buckets`), not two: the lookups are
    most of what a write asks of the database."""
    own = length_bucket(length)
    return [own, own + 1]


def near_buckets(length: int, near_threshold: float) -> list[int]:
    """Every own bucket where a text near one of `length` code points can lie."""
    shortest = max(1, math.ceil(length * near_threshold - 1e-9))
    longest = math.floor(length / max(near_threshold, 1e-3) + 1e-9)
    return list(range(length_bucket(shortest), length_bucket(longest) + 1))


def probe_buckets(length: int, near_threshold: float) -> list[int]:
    """The buckets a write looks up: every other one from the lowest near bucket plus one, as
    bucket p holds the texts of own buckets p − 1 and p (`stored_buckets`). At the 0.9
    threshold the near lengths span at most two own buckets, so this is a single bucket."""
    near = near_buckets(length, near_threshold)
    return list(range(near[0] + 1, near[-1] + 2, 2))
