"""Why a mention converged, got a review link, or neither, pair by pair (the dry run, §5.6).

The decision names the rule that fired; a curator also asks *why not* of the entities nearby:
which guard kept a one-edit pair from converging, which edit it was, which nickname pair made a
link, why a look-alike got no link. `explain` answers that for every compatible candidate, from
the same pairs and thresholds as `resolver.entity_rules.decide`, and lists the words whose lists
the caller shows (the mention's words, then the stored side of each edited word or nickname).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from castlegraph.resolver.edits import edited_words
from castlegraph.resolver.entity_model import Decision, EntityView, Mention
from castlegraph.resolver.entity_pairs import KeyPair, review_reason
from castlegraph.resolver.entity_rules import (
    MAX_REVIEW_LINKS,
    REVIEW_MIN_KEY_LEN,
    REVIEW_TWO_EDIT_MIN_SIMILARITY,
    TYPO_MIN_KEY_LEN,
    NameGuard,
    compatible_pool,
    look_alike_pairs,
    nickname_pairs,
)

Outcome = Literal["converged", "review_link", "none"]

_SPELLING_RULES = {
    "exact": "the same name, byte for byte",
    "normalized": "the same key",
    "alias": "a recorded alias has the same key",
}


@dataclass(frozen=True, slots=True)
class PairExplained:
    """The mention against one candidate entity, by the spelling that decided the outcome."""

    entity: EntityView
    spelling: str
    key: str
    outcome: Outcome
    why: str
    rule: str | None = None
    """The rule that converged the pair (`outcome` converged)."""
    reason: str | None = None
    """The review link's reason: the one it got, or would have had past the cap."""
    distance: int | None = None
    similarity: float | None = None
    edit: dict[str, object] | None = None
    blocked: str | None = None
    """The guard that kept a one-edit pair from converging."""
    words: tuple[str, str] | None = None
    """The edited word, as the mention and the stored spelling write it."""
    nickname: tuple[str, str] | None = None
    """The given names of a nickname pair (the mention's, the stored one's)."""


@dataclass(frozen=True, slots=True)
class Explanation:
    mention_key: str
    holds_people: bool
    """The mention's kind holds people: name lists and nicknames apply to it."""
    fuzzy: bool
    words: tuple[str, ...]
    pairs: tuple[PairExplained, ...]


def explain(
    mention: Mention,
    candidates: Iterable[EntityView],
    decision: Decision,
    *,
    fuzzy: bool,
    is_known_word: Callable[[str], bool],
    names: NameGuard | None = None,
) -> Explanation:
    """Each compatible candidate with a spelling the rules weigh (equal key, within two edits,
    in another word order, or a nickname pair), and the outcome the decision gave it; what
    converged first, then the links, then the rest, each closest first."""
    key = mention.key
    pool = compatible_pool(mention.kind, candidates)
    pairs = look_alike_pairs(mention, key, pool, is_known_word, names) if fuzzy else []
    nicknamed = {e.id: (s, g) for e, s, g in nickname_pairs(mention, key, pool, names)}
    by_entity: dict[str, list[KeyPair]] = {}
    for pair in pairs:
        by_entity.setdefault(pair.entity.id, []).append(pair)
    explained: list[PairExplained] = []
    for entity in pool:
        link = next((x for x in decision.possibly_same_as if x.entity.id == entity.id), None)
        found = None
        if link is None or link.reason != "nickname":
            found = _explained(entity, key, decision, by_entity.get(entity.id, []), fuzzy)
        if found is None and entity.id in nicknamed:
            spelling, given = nicknamed[entity.id]
            found = _nickname(entity, spelling, given, decision)
        if found is not None:
            explained.append(found)
    explained.sort(key=_order)
    words = list(dict.fromkeys(key.split(" ")))
    for done in explained:
        stored = done.words[1] if done.words else done.nickname[1] if done.nickname else None
        if stored and stored not in words:
            words.append(stored)
    holds_people = names is not None and mention.kind in names.kinds
    return Explanation(key, holds_people, fuzzy, tuple(words), tuple(explained))


_OUTCOME_ORDER = {"converged": 0, "review_link": 1, "none": 2}


def _order(pair: PairExplained) -> tuple[int, float, str, str]:
    """What converged, then the links, then the rest; closest first, then by spelling (ids are
    random: they only break the last ties)."""
    similarity = 1.0 if pair.similarity is None else pair.similarity
    return (_OUTCOME_ORDER[pair.outcome], -similarity, pair.spelling, pair.entity.id)


def _explained(
    entity: EntityView, key: str, decision: Decision, pairs: list[KeyPair], fuzzy: bool
) -> PairExplained | None:
    chosen = decision.entity is not None and decision.entity.id == entity.id
    equal = [(s, k) for _, s, k in entity.spellings() if k == key]
    if equal:
        spelling, spelled = equal[0]
        if chosen and decision.rule in _SPELLING_RULES:
            spelling = str(decision.evidence.get("matched_spelling", spelling))
            why = f"rule {decision.rule}: {_SPELLING_RULES[decision.rule]}"
            return PairExplained(entity, spelling, spelled, "converged", why, rule=decision.rule)
        why = f"the same key, but rule {decision.rule} chose another entity first"
        return PairExplained(entity, spelling, spelled, "none", why, distance=0, similarity=1.0)
    if not pairs:
        return None
    if chosen and decision.rule == "typo":
        matched = decision.evidence.get("matched_spelling")
        typo = next((p for p in pairs if p.spelling == matched), pairs[0])
        why = f"rule typo: one edit ({_edit_text(typo)}), the only identity one edit away"
        return _pair(key, typo, "converged", why, rule="typo")
    link = next((x for x in decision.possibly_same_as if x.entity.id == entity.id), None)
    linked = None if link is None else next((p for p in pairs if _reason(p) == link.reason), None)
    if link is not None and linked is not None:
        why = _why_reason(key, linked, link.reason)
        return _pair(key, linked, "review_link", why, reason=link.reason)
    best = min(pairs, key=lambda p: (p.distance, p.index))
    reason = _reason(best)
    if not fuzzy:
        why = "fuzzy matching is off: only rules 1-3 apply"
    elif reason is not None:
        why = f"{_why_reason(key, best, reason)}; but {_cap_or_rule(decision)}"
    elif decision.decision == "same":
        why = f"rule {decision.rule} converged onto another entity first"
    else:
        why = _why_none(best)
    return _pair(key, best, "none", why, reason=reason)


def _nickname(
    entity: EntityView, spelling: str, given: tuple[str, str], decision: Decision
) -> PairExplained:
    linked = any(x.entity.id == entity.id for x in decision.possibly_same_as)
    why = f"{given[0]!r} and {given[1]!r} are a nickname pair, the same surname key"
    why += ": a review link, never a convergence" if linked else f"; but {_cap_or_rule(decision)}"
    key = next(k for _, s, k in entity.spellings() if s == spelling)
    return PairExplained(
        entity,
        spelling,
        key,
        "review_link" if linked else "none",
        why,
        reason="nickname",
        distance=0,
        similarity=1.0,
        nickname=given,
    )


def _cap_or_rule(decision: Decision) -> str:
    if decision.decision == "same":
        return f"rule {decision.rule} converged onto another entity first"
    return f"only the {MAX_REVIEW_LINKS} closest get a link"


def _reason(pair: KeyPair) -> str | None:
    return review_reason(
        pair,
        typo_min_len=TYPO_MIN_KEY_LEN,
        review_min_len=REVIEW_MIN_KEY_LEN,
        two_edit_min_similarity=REVIEW_TWO_EDIT_MIN_SIMILARITY,
    )


def _pair(
    key: str,
    pair: KeyPair,
    outcome: Outcome,
    why: str,
    *,
    rule: str | None = None,
    reason: str | None = None,
) -> PairExplained:
    return PairExplained(
        pair.entity,
        pair.spelling,
        pair.key,
        outcome,
        why,
        distance=pair.distance,
        similarity=pair.similarity,
        edit=pair.edit_evidence() or None,
        blocked=pair.blocked,
        words=_words(key, pair),
        rule=rule,
        reason=reason,
    )


def _words(key: str, pair: KeyPair) -> tuple[str, str] | None:
    """The word a one-edit pair's edit lies in, as the mention and the stored spelling write it."""
    return edited_words(key, pair.key, pair.edit) if pair.edit is not None else None


def _edit_text(pair: KeyPair) -> str:
    edit = pair.edit
    if edit is None:
        return f"{pair.distance} edits"
    return f"{edit.op} {edit.removed!r} → {edit.added!r} at {edit.position}"


def _why_reason(key: str, pair: KeyPair, reason: str) -> str:
    """Why a pair qualifies for a review link of `reason`."""
    words = _words(key, pair)
    texts = {
        "one_edit_short_key": f"one edit, but the shorter key has {pair.shorter} code points "
        f"(a typo needs {TYPO_MIN_KEY_LEN})",
        "ambiguous_typo": "one edit, but more than one identity is one edit away",
        "digit_edit": "one edit, but it touches a digit: digits are identity",
        "known_words": f"one edit, but both {_pair_text(words)} are known words: two names",
        "nickname": f"one edit, but {_pair_text(words)} are a nickname pair: two names",
        "unknown_name": f"one edit, but the stored {_stored(words)} is no known name: "
        "on people a typo converges only onto a known name",
        "two_edits": f"two edits, key similarity {pair.similarity:.2f} ≥ "
        f"{REVIEW_TWO_EDIT_MIN_SIMILARITY}",
        "word_order": "the same words in another order: order alone never proves identity",
    }
    return texts.get(reason, reason)


def _why_none(pair: KeyPair) -> str:
    if pair.shorter < REVIEW_MIN_KEY_LEN:
        return f"the shorter key has {pair.shorter} code points: too short for a review link"
    return (
        f"{pair.distance} edits, key similarity {pair.similarity:.2f} < "
        f"{REVIEW_TWO_EDIT_MIN_SIMILARITY}: no link"
    )


def _pair_text(words: tuple[str, str] | None) -> str:
    return f"{words[0]!r} and {words[1]!r}" if words else "spellings"


def _stored(words: tuple[str, str] | None) -> str:
    return f"word {words[1]!r}" if words else "spelling"
