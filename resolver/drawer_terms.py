"""A drawer's index terms in pure Python: word pairs and sketch bands, each hashed with its room
(design §4.5); the pure-Python core's (`resolver.core`), and the reference the compiled core's
equals byte for byte: these hashes are stored, so a drawer written under one core is found
under the other.
"""

import hashlib
import itertools
from collections.abc import Iterable, Sequence
from functools import lru_cache

from castlegraph.resolver.shingles import BANDS

ANCHOR_TERMS = 48
"""Word pairs per drawer kept as index terms (the longest, when a text has more)."""


def anchor_terms(wing: str, room: str, normalized: str) -> list[str]:
    """Adjacent word pairs (a one-word text: the word), the longest `ANCHOR_TERMS` of them,
    then in code point order, each hashed with the room (`resolver.drawers.anchor_terms`)."""
    words = normalized.split()
    pairs = {f"{a} {b}" for a, b in itertools.pairwise(words)} or set(words)
    chosen = sorted(pairs, key=lambda term: (-len(term), term))[:ANCHOR_TERMS]
    return [scoped_hash(wing, room, term) for term in chosen]


def band_keys(sketched: Sequence[str], bucket: int) -> list[str]:
    """The bands of a sketch as index words for one length bucket (not yet room-scoped): band
    i is the values of bins i and i + 1, cyclically."""
    return [
        f"band {bucket} {band} {sketched[band]} {sketched[(band + 1) % BANDS]}"
        for band in range(BANDS)
    ]


def band_terms(wing: str, room: str, sketched: Sequence[str], buckets: Iterable[int]) -> list[str]:
    """The room-scoped hashes of a sketch's bands in each of `buckets`, bucket by bucket."""
    return [
        scoped_hash(wing, room, key) for bucket in buckets for key in band_keys(sketched, bucket)
    ]


def scoped_hash(wing: str, room: str, word: str) -> str:
    """The 8-byte BLAKE2b of `wing␟room␟word` in hex: a term of one room only."""
    digest = _room_digest(wing, room).copy()
    digest.update(word.encode())
    return digest.hexdigest()


@lru_cache(maxsize=256)
def _room_digest(wing: str, room: str) -> "hashlib.blake2b":
    """The hash state after the room's prefix: every term of a room starts from it (a copy
    costs less than hashing the prefix again for each of a write's ~180 terms)."""
    return hashlib.blake2b(f"{wing}\x1f{room}\x1f".encode(), digest_size=8)
