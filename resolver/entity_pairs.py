"""Compare a mention key with an entity's spellings: distance, the edit, and the guards.

One :class:`KeyPair` per spelling within two OSA edits of the mention key, or, failing that,
whose words sorted are within one edit of the mention key's words sorted (``word_order``: a
review link, never a convergence). The typo rule and the review links of
``resolver.entity_rules`` only read these pairs; the thresholds stay there and are passed in,
so this module holds no policy of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from rapidfuzz.distance import OSA
from rapidfuzz.process import cpdist

from castlegraph.resolver.edits import Edit, blocked_by_words, single_edit, unknown_target
from castlegraph.resolver.entity_keys import sorted_words_key
from castlegraph.resolver.entity_model import EntityView, ReviewReason, SpellingRole
from castlegraph.resolver.nicknames import Nicknames

BlockReason = Literal["digit_edit", "known_words", "nickname", "unknown_name"]

MAX_FUZZY_DISTANCE = 2  # two edits is the widest look-alike any rule considers
_TOLERANCE = 1e-9  # threshold comparisons in float64 (1 - 2/8 is exactly 0.75)


@dataclass(frozen=True, slots=True)
class KeyPair:
    """The mention key against one spelling (``index`` 0 = name, i = alias i - 1)."""

    entity: EntityView
    role: SpellingRole
    index: int
    spelling: str
    key: str
    distance: int
    longer: int
    shorter: int
    edit: Edit | None = None
    blocked: BlockReason | None = None
    word_order: bool = False
    """The keys differ in word order: ``distance`` is that of the keys with their words sorted."""

    @property
    def similarity(self) -> float:
        """Key similarity ``1 - d/L`` (L = the longer key), 1.0 for two empty keys."""
        return key_similarity(self.distance, self.longer)

    @classmethod
    def equal(cls, entity: EntityView, index: int) -> KeyPair:
        """A spelling whose key equals the mention key (rules 1-3)."""
        role, spelling, key = entity.spellings()[index]
        return cls(entity, role, index, spelling, key, 0, len(key), len(key))

    def is_typo_candidate(self, typo_min_len: int) -> bool:
        """One edit, long enough to be a typo, and no guard objects."""
        return (
            self.distance == 1
            and self.shorter >= typo_min_len
            and self.blocked is None
            and not self.word_order
        )

    def is_one_edit_neighbour(self, typo_min_len: int) -> bool:
        """One edit, long enough to be a typo, no digit touched: what rule 4 counts, whether or
        not the word guard lets it converge."""
        return (
            self.distance == 1
            and self.shorter >= typo_min_len
            and self.blocked != "digit_edit"
            and not self.word_order
        )

    def edit_evidence(self) -> dict[str, object]:
        """The edit as plain values (the API shows it; edges cannot store maps)."""
        if self.edit is None:
            return {}
        return {
            "op": self.edit.op,
            "position": self.edit.position,
            "removed": self.edit.removed,
            "added": self.edit.added,
        }


def _guard(
    mention_key: str,
    key: str,
    edit: Edit,
    is_known_word: Callable[[str], bool],
    known_target: bool,
    nicknames: Nicknames | None,
) -> BlockReason | None:
    """Why a one-edit pair may not converge: digits are identity; two real words are two names;
    a given name and its nickname (`Jon`/`John`) are two names even where no word list knows
    one of them; with ``known_target``, a stored word that is no known name may be another rare
    name."""
    if edit.touches_digit():
        return "digit_edit"
    if blocked_by_words(mention_key, key, edit, is_known_word):
        return "known_words"
    if nicknames is not None and nicknames.pair_of(mention_key, key) is not None:
        return "nickname"
    if known_target and unknown_target(mention_key, key, edit, is_known_word):
        return "unknown_name"
    return None


def compare_spellings(
    mention_key: str,
    entity: EntityView,
    typo_min_len: int,
    is_known_word: Callable[[str], bool],
    *,
    known_target: bool = False,
    nicknames: Nicknames | None = None,
) -> list[KeyPair]:
    """The entity's spellings within one or two edits of ``mention_key``, in spelling order.

    ``known_target`` (kinds that hold people, when opted in) also blocks a one-edit pair whose
    stored word is not a known word: only a rare spelling of a known name converges as a typo.
    ``nicknames`` (a person mention and a stored person) blocks a one-edit nickname pair.

    Guards run only on one-edit pairs long enough to be typos: shorter pairs never converge, so
    asking the lexicon about them would only cost time.
    """
    pairs: list[KeyPair] = []
    mention_len = len(mention_key)
    for index, (role, spelling, key) in enumerate(entity.spellings()):
        found = spelling_distance(mention_key, key, typo_min_len)
        if found is None or found == (0, False):
            continue  # no pair, or an equal key: rules 1-3's
        distance, word_order = found
        longer, shorter = max(len(key), mention_len), min(len(key), mention_len)
        if word_order:
            pairs.append(
                KeyPair(entity, role, index, spelling, key, distance, longer, shorter,
                        word_order=True)
            )  # fmt: skip
            continue
        edit: Edit | None = None
        blocked: BlockReason | None = None
        if distance == 1:
            edit = single_edit(mention_key, key)
            if edit is None:  # pragma: no cover - OSA says one edit, so one edit exists
                raise AssertionError(f"no single edit between {mention_key!r} and {key!r}")
            if shorter >= typo_min_len:
                blocked = _guard(mention_key, key, edit, is_known_word, known_target, nicknames)
        pairs.append(
            KeyPair(entity, role, index, spelling, key, distance, longer, shorter, edit, blocked)
        )
    return pairs


def spelling_distance(mention_key: str, key: str, typo_min_len: int) -> tuple[int, bool] | None:
    """How far a spelling's key is from ``mention_key``, as `compare_spellings` weighs it:
    (OSA edits, False) within two edits (0: an equal key), else (the edits between the keys'
    words sorted, True) for a ``word_order`` pair, else None (no pair)."""
    mention_len, key_len = len(mention_key), len(key)
    if abs(key_len - mention_len) > MAX_FUZZY_DISTANCE:
        return None  # cheap length filter: each edit changes the length by at most one
    distance = OSA.distance(mention_key, key, score_cutoff=MAX_FUZZY_DISTANCE)
    if distance <= MAX_FUZZY_DISTANCE:
        return distance, False
    if min(key_len, mention_len) < typo_min_len:
        return None
    # the mention's words sorted only for the few spellings that get here, once per key
    reordered = OSA.distance(_sorted_words(mention_key), sorted_words_key(key), score_cutoff=1)
    return (reordered, True) if reordered <= 1 else None


def key_similarity(distance: int, longer: int) -> float:
    """``1 - d/L`` (L: the longer key's length), 1.0 for two empty keys."""
    return 1.0 - distance / longer if longer else 1.0


_sorted_words = lru_cache(maxsize=4096)(sorted_words_key)
"""A mention key is weighed against every index hit of its probes (dozens at a million
entities): its sorted words are worked out once."""


def may_pair(mention_key: str, key: str) -> bool:
    """Whether `compare_spellings` could make anything of this spelling: a pair, or an equal key
    for rules 1-3 (an equal name has an equal key). A cheap superset for weighing index hits
    before their entities are read: a spelling for which this is False yields nothing."""
    if abs(len(key) - len(mention_key)) > MAX_FUZZY_DISTANCE:
        return False
    if OSA.distance(mention_key, key, score_cutoff=MAX_FUZZY_DISTANCE) <= MAX_FUZZY_DISTANCE:
        return True
    return _reordered_within_one_edit(mention_key, key)


def may_pair_all(mention_keys: Sequence[str], keys: Sequence[str]) -> list[bool]:
    """``may_pair`` of each (mention key, key) pair, the same answers: the edit distances of
    every pair at once in rapidfuzz's C (`cpdist`), then the word order of the pairs still out.
    The in-memory index weighs tens of thousands of pairs a batch at a million entities, and one
    Python call a pair cost more than the rest of the weighing. The word-order check of the
    rest costs little: weighed with one `cpdist` call too, a batch's took as long (2026-12-02)."""
    if not mention_keys:
        return []
    cutoff = MAX_FUZZY_DISTANCE
    distances = cpdist(mention_keys, keys, scorer=OSA.distance, score_cutoff=cutoff).tolist()
    return [
        distance <= cutoff or _reordered_within_one_edit(mention_key, key)
        for mention_key, key, distance in zip(mention_keys, keys, distances, strict=True)
    ]


def _reordered_within_one_edit(mention_key: str, key: str) -> bool:
    """Whether the two keys' words, each sorted, are within one edit (a `word_order` pair)."""
    # Such keys differ in length by one at most (OSA's distance is at least the gap), and
    # sorting the words of two one-word keys changes neither.
    if abs(len(key) - len(mention_key)) > 1 or (" " not in mention_key and " " not in key):
        return False
    reordered = OSA.distance(_sorted_words(mention_key), sorted_words_key(key), score_cutoff=1)
    return reordered <= 1


def review_reason(
    pair: KeyPair,
    *,
    typo_min_len: int,
    review_min_len: int,
    two_edit_min_similarity: float,
) -> ReviewReason | None:
    """Why ``pair`` deserves a review link once the mention became a new entity, or None.

    Called only when no rule fired, so a pair that is still a typo candidate was one of several
    identities: ``ambiguous_typo``.
    """
    if pair.distance == 1 and not pair.word_order and pair.shorter >= review_min_len:
        if pair.shorter < typo_min_len:
            return "one_edit_short_key"
        return pair.blocked if pair.blocked is not None else "ambiguous_typo"
    return far_reason(
        pair.distance,
        pair.longer,
        pair.shorter,
        pair.word_order,
        review_min_len=review_min_len,
        two_edit_min_similarity=two_edit_min_similarity,
    )


def far_reason(
    distance: int,
    longer: int,
    shorter: int,
    word_order: bool,
    *,
    review_min_len: int,
    two_edit_min_similarity: float,
) -> ReviewReason | None:
    """`review_reason` of a pair that is no single edit (two edits, or a ``word_order`` pair):
    such a pair has no guard, so its keys' lengths and distance are all it takes."""
    if shorter < review_min_len:
        return None
    if word_order:
        return "word_order"
    if key_similarity(distance, longer) >= two_edit_min_similarity - _TOLERANCE:
        return "two_edits"
    return None
