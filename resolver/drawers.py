"""Verdicts for a drawer about to be written (design §4.3).

The graph layer fetches a handful of candidates from indexes (same hash, same fingerprint,
shared anchor terms); `compare` names the likeness of each, cheapest signal first, and
`strongest` keeps the few links worth recording. Nothing here ever merges two drawers.
"""

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from castlegraph.resolver import core, drawer_terms, shingles
from castlegraph.resolver.similarity import OSA_MAX_LENGTH, at_least, similarities_at_least
from castlegraph.resolver.text import content_hash, fingerprint, normalize_text

NEAR_MIN_LENGTH = 12
"""Below this many normalised code points one letter is another word, not a typo."""

UNBOUNDED_LENGTH = 2**62
"""An upper length no text reaches (an integer: both databases compare it with `norm_len`)."""

MAX_LINKS = 5
"""At most this many SIMILAR_TO edges per write, strongest first."""

ANCHOR_TERMS = drawer_terms.ANCHOR_TERMS
"""Word pairs per drawer kept as index terms (the longest, when a text has more)."""

TERMS_SCHEME = "word-pairs+5-gram-bands-2"
"""What the stored index terms hash; drawers indexed under an older scheme are re-indexed by a
migration (4: single words were too common in a room of 100 k drawers; 7: word pairs alone
missed a near copy with a typo in every pair, so MinHash bands of 5-grams joined them; 10: the
bands are stored in two length buckets and looked up in one, with a cheaper 5-gram hash)."""

LikenessKind = Literal["exact", "normalized", "near"]
_KIND_RANK: dict[str, int] = {"exact": 0, "normalized": 1, "near": 2}


@dataclass(frozen=True, slots=True)
class DrawerText:
    """What the rules need to know about one drawer's content."""

    content_hash: str
    fingerprint: str | None
    normalized: str

    @classmethod
    def of(cls, content: str) -> "DrawerText":
        normalized = normalize_text(content)
        return cls(content_hash(content), fingerprint(normalized), normalized)


@dataclass(frozen=True, slots=True)
class Likeness:
    """Why a new drawer resembles an existing one: the evidence stored on SIMILAR_TO."""

    other_id: str
    kind: LikenessKind
    similarity: float
    same_hash: bool
    same_fingerprint: bool


def compare(
    new: DrawerText, other_id: str, other: DrawerText, near_threshold: float
) -> Likeness | None:
    """The strongest likeness between two texts, or None when they are distinct."""
    [likeness] = compare_all(new, [(other_id, other)], near_threshold)
    return likeness


def compare_all(
    new: DrawerText, others: Sequence[tuple[str, DrawerText]], near_threshold: float
) -> list[Likeness | None]:
    """`compare` of `new` with each of `others` (id, text), in order: the near scores of all
    of them measured in one pass (`similarities_at_least`)."""
    measured = [place for place, (_, other) in enumerate(others) if _measured(new, other)]
    scores = similarities_at_least(
        new.normalized, [others[place][1].normalized for place in measured], near_threshold
    )
    near = dict(zip(measured, scores, strict=True))
    return [
        _likeness(new, other_id, other, near.get(place))
        for place, (other_id, other) in enumerate(others)
    ]


def _measured(new: DrawerText, other: DrawerText) -> bool:
    """Whether the pair is decided by its near score: not the same bytes, not the same
    fingerprint, and both normal forms long enough to be near copies."""
    return (
        new.content_hash != other.content_hash
        and not _same_fingerprint(new, other)
        and min(len(new.normalized), len(other.normalized)) >= NEAR_MIN_LENGTH
    )


def _same_fingerprint(new: DrawerText, other: DrawerText) -> bool:
    return new.fingerprint is not None and new.fingerprint == other.fingerprint


def _likeness(
    new: DrawerText, other_id: str, other: DrawerText, similarity: float | None
) -> Likeness | None:
    """The pair's likeness, given its near score (None: not near, or not measured)."""
    same_fingerprint = _same_fingerprint(new, other)
    if new.content_hash == other.content_hash:
        # Same bytes: similarity 1.0 even when the normal form is empty (design §11).
        return Likeness(other_id, "exact", 1.0, True, same_fingerprint)
    if same_fingerprint:
        return Likeness(other_id, "normalized", 1.0, False, True)
    if similarity is not None:
        return Likeness(other_id, "near", similarity, False, False)
    return None


def may_be_near(length: int, other_length: int, near_threshold: float) -> bool:
    """False when the lengths of two normal forms alone rule out a near likeness.

    An edit-scored pair is at most 1 − gap / longer length alike, so a write need not even
    normalise a candidate whose stored length is too far from its own; trigram-scored (long)
    texts have no such bound and are always compared.
    """
    longest = max(length, other_length)
    if longest == 0 or longest > OSA_MAX_LENGTH:
        return True
    return at_least(1.0 - abs(length - other_length) / longest, near_threshold)


def near_lengths(length: int, near_threshold: float) -> tuple[int, int]:
    """The normal-form lengths of the candidates `may_be_near` lets through, as one range for
    the candidate statements, which leave the others out before they rank and cap the rest
    (their content would be read and sent for nothing). A candidate longer than
    `OSA_MAX_LENGTH` is always let through too; above it, so is every length."""
    if length > OSA_MAX_LENGTH:
        return 0, UNBOUNDED_LENGTH
    shortest = max(0, math.floor(length * near_threshold) - 1)
    while not may_be_near(length, shortest, near_threshold):
        shortest += 1
    longest = min(OSA_MAX_LENGTH, math.ceil(length / max(near_threshold, 1e-3)) + 1)
    while longest > length and not may_be_near(length, longest, near_threshold):
        longest -= 1
    return shortest, longest


def strongest(likenesses: Iterable[Likeness], limit: int = MAX_LINKS) -> list[Likeness]:
    """Exact before normalized before near, then higher similarity, then smaller id."""
    ranked = sorted(
        likenesses, key=lambda link: (_KIND_RANK[link.kind], -link.similarity, link.other_id)
    )
    return ranked[:limit]


def anchor_terms(wing: str, room: str, normalized: str) -> list[str]:
    """Index keys for the shared-terms candidate search, scoped to one room.

    A term is a pair of adjacent words (a one-word text: the word), hashed with the room, so
    that an index lookup only ever returns drawers of that room, whatever the size of the rest
    of the palace. Pairs are far rarer than words — in a room of 100 k drawers even its rarest
    words recur in dozens — while a near copy keeps every pair its typos do not touch. The
    search then uses the terms that are rarest *in the room* (see `graph.drawers.palace`); a text
    with more pairs than the cap keeps its longest ones, which are the likeliest to be rare.
    The core chosen computes them (`resolver.core`; reference `resolver.drawer_terms`).
    """
    return core.anchor_terms(wing, room, normalized)


@dataclass(frozen=True, slots=True)
class WriteTerms:
    """What one write looks up and what it is stored under, from one sketch of its text."""

    anchors: list[str]
    """Word pairs it looks up (none below the near length: nothing can be near it)."""
    bands: list[str]
    """`band_probes`."""
    stored: list[str]
    """`index_terms`."""


def write_terms(wing: str, room: str, normalized: str, near_threshold: float) -> WriteTerms:
    """`anchor_terms`, `band_probes` and `index_terms` of one text, sketched once."""
    anchors = anchor_terms(wing, room, normalized)
    if len(normalized) < NEAR_MIN_LENGTH:
        return WriteTerms([], [], anchors)
    sketched = core.sketch(normalized)
    length = len(normalized)
    probed, own = shingles.probe_buckets(length, near_threshold), shingles.stored_buckets(length)
    # The probed bucket is one of the two it is stored in (at 0.9): its bands are hashed once.
    by_bucket = {
        bucket: core.band_terms(wing, room, sketched, [bucket]) for bucket in {*probed, *own}
    }
    bands = [term for bucket in probed for term in by_bucket[bucket]]
    stored = anchors + [term for bucket in own for term in by_bucket[bucket]]
    return WriteTerms(anchors, bands, stored)


@dataclass(frozen=True, slots=True)
class PreparedText:
    """Everything a write's decision needs from its own text, and from nothing else: so it can
    be computed before the write, anywhere: on the writer's thread or in another process."""

    text: DrawerText
    terms: WriteTerms
    lengths: tuple[int, int]
    """The candidates' normal-form lengths that allow a near copy (`near_lengths`)."""


def prepare_text(wing: str, room: str, content: str, near_threshold: float) -> PreparedText:
    """The normal form, hashes, index terms and near lengths of a text for its room."""
    text = DrawerText.of(content)
    length = len(text.normalized)
    return PreparedText(
        text,
        write_terms(wing, room, text.normalized, near_threshold),
        near_lengths(length, near_threshold),
    )


def prepare_texts(
    places: Sequence[tuple[str, str, str]], near_threshold: float
) -> list[PreparedText]:
    """`prepare_text` of each (wing, room, content), in order."""
    return [prepare_text(wing, room, content, near_threshold) for wing, room, content in places]


def band_probes(wing: str, room: str, normalized: str, near_threshold: float) -> list[str]:
    """The band terms a write looks up: its sketch's bands in the length buckets that hold every
    text a near copy of it can be (one at the 0.9 threshold). None below the near length."""
    if len(normalized) < NEAR_MIN_LENGTH:
        return []
    buckets = shingles.probe_buckets(len(normalized), near_threshold)
    return core.band_terms(wing, room, core.sketch(normalized), buckets)


def index_terms(wing: str, room: str, normalized: str) -> list[str]:
    """Everything a stored drawer is indexed by: its word pairs and, when it is long enough to
    be near anything, its bands in its own length bucket and the next (design §4.5)."""
    terms = anchor_terms(wing, room, normalized)
    if len(normalized) >= NEAR_MIN_LENGTH:
        buckets = shingles.stored_buckets(len(normalized))
        terms.extend(core.band_terms(wing, room, core.sketch(normalized), buckets))
    return terms
