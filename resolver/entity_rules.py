"""Entity resolution as a decision procedure (design §5.2-5.3, design §11).

Cheapest and safest rule first, the first that fires wins: ``exact``, ``normalized``,
``alias``, then (fuzzy only) ``typo``, else ``new`` with review links to look-alikes.
Candidates are whatever the graph layer fetched; incompatible ones are filtered here, so
over-fetching is always safe. Anything ambiguous is handed on as review links, never guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from castlegraph.resolver.entity_keys import remembered_entity_key
from castlegraph.resolver.entity_model import (
    Decision,
    EntityView,
    Mention,
    ReviewLink,
    ReviewReason,
    RuleName,
    is_alias_new,
    make_mention,
)
from castlegraph.resolver.entity_pairs import (
    KeyPair,
    compare_spellings,
    far_reason,
    key_similarity,
    review_reason,
    spelling_distance,
)
from castlegraph.resolver.nicknames import Nicknames, split_given

__all__ = [
    "ALIAS_CONFIDENCE",
    "EXACT_CONFIDENCE",
    "MAX_REVIEW_LINKS",
    "NEW_CONFIDENCE",
    "NORMALIZED_CONFIDENCE",
    "OTHER_KIND",
    "REVIEW_MIN_KEY_LEN",
    "REVIEW_TWO_EDIT_MIN_SIMILARITY",
    "TYPO_MIN_KEY_LEN",
    "Decision",
    "EntityView",
    "FarLink",
    "FarLookAlikes",
    "Mention",
    "NameGuard",
    "ReviewLink",
    "compatible_kinds",
    "compatible_pool",
    "decide",
    "far_link",
    "is_alias_new",
    "kinds_compatible",
    "look_alike_pairs",
    "make_mention",
    "nickname_pairs",
]

# Thresholds (keys are compared; lengths in code points after lower-casing).
TYPO_MIN_KEY_LEN = 6  # below this one letter is another name, not a typo
REVIEW_MIN_KEY_LEN = 4  # below this look-alikes are too common to be worth a review
REVIEW_TWO_EDIT_MIN_SIMILARITY = 0.75  # 1 - d/L for two-edit pairs: L ≥ 8
MAX_REVIEW_LINKS = 5  # review links per new entity, strongest first

EXACT_CONFIDENCE = 1.0
NORMALIZED_CONFIDENCE = 0.98
ALIAS_CONFIDENCE = 0.95
NEW_CONFIDENCE = 1.0

OTHER_KIND = "other"  # an extractor could not classify the mention
PERSON_KINDS = frozenset({"person"})


@dataclass(frozen=True, slots=True)
class NameGuard:
    """Given names and surnames the word guard also knows, for the kinds that hold people.

    A general word list knows the commoner of two real first names one edit apart (``gert``)
    but not the rarer (``gerta``), so the pair would converge as a typo; a name list knows both.
    Only kinds that hold people ask it: elsewhere a rare given name is as good as a typo.

    With ``typos_onto_known_names`` (the default, design §5.3) the typo rule is stricter on
    those kinds: a mention converges only onto a spelling whose edited word the lexicon knows. Two
    rare real names one edit apart (``kołak`` / ``kołpak``) look exactly like a typo and no
    offline list knows both; a typo, though, is a rare spelling of a *known* name. A pair whose
    stored word is unknown gets a review link (``unknown_name``) instead. Off, rule 4 is the
    same on every kind.

    ``nicknames`` (design §5.3, *Nicknames*): a person mention and a stored person whose given
    names are a nickname pair with the same surname key (`Bob Smith`/`Robert Smith`) get a review
    link ``nickname``, never a convergence; asked only for mentions of these kinds.
    """

    is_known_name: Callable[[str], bool]
    kinds: frozenset[str] = PERSON_KINDS
    typos_onto_known_names: bool = True
    nicknames: Nicknames | None = None

    def nicknames_for(self, kind: str) -> Nicknames | None:
        """The nickname list for a mention of `kind`: None unless the kind holds people."""
        return self.nicknames if kind in self.kinds else None

    def nickname_probes(self, key: str, kind: str) -> frozenset[str]:
        """Extra probe keys of a mention of `kind` for its nickname pairs (none off people)."""
        nicknames = self.nicknames_for(kind)
        return nicknames.probe_keys(key) if nicknames is not None else frozenset()

    def guard_for(self, kind: str, is_known_word: Callable[[str], bool]) -> Callable[[str], bool]:
        """The word guard's lexicon for a pair with an entity of ``kind``."""
        return self.with_names(is_known_word) if kind in self.kinds else is_known_word

    def with_names(self, is_known_word: Callable[[str], bool]) -> Callable[[str], bool]:
        """The word guard's lexicon for kinds that hold people: words and names."""
        is_known_name = self.is_known_name
        return lambda word: is_known_word(word) or is_known_name(word)


def _preference(entity: EntityView) -> tuple[bool, str]:
    """Specific kinds before ``other``, then the lowest id (as a string): a stable answer.

    It breaks ties *within* a rule: rule order comes first, so an exact name on an ``other``
    entity beats a key match on a ``person``.
    """
    return (entity.kind == OTHER_KIND, entity.id)


def kinds_compatible(mention_kind: str, entity_kind: str) -> bool:
    """Whether a mention of `mention_kind` is ever compared with an entity of `entity_kind`
    (design §5.2): its own kind, or any when it is unclassified. The only gate on candidates
    by kind, so the candidate search can drop the others before it reads them."""
    return mention_kind in (OTHER_KIND, entity_kind)


def compatible_kinds(mention_kinds: Collection[str] | None) -> Collection[str] | None:
    """The entity kinds that mentions of `mention_kinds` are compared with (`kinds_compatible`),
    or None for every kind: one of them is `other`, or the kinds are not known. A lookup asks
    for these, so the entities of the others are never read (design §8.1)."""
    if mention_kinds is None or OTHER_KIND in mention_kinds:
        return None
    return mention_kinds


def compatible_pool(kind: str, candidates: Iterable[EntityView]) -> list[EntityView]:
    """Unique candidates the mention may match (design §5.2), most preferred first."""
    unique: dict[str, EntityView] = {}
    for entity in candidates:
        if kinds_compatible(kind, entity.kind):
            unique.setdefault(entity.id, entity)
    return sorted(unique.values(), key=_preference)


def _same(
    mention: Mention,
    key: str,
    rule: RuleName,
    confidence: float,
    pair: KeyPair,
    *,
    extra: dict[str, object] | None = None,
) -> Decision:
    evidence: dict[str, object] = {
        "rule": rule,
        "mention_key": key,
        "matched": pair.role,
        "matched_spelling": pair.spelling,
        "matched_key": pair.key,
        "distance": pair.distance,
        "similarity": pair.similarity,
    }
    evidence.update(extra or {})
    new_alias = mention.name if is_alias_new(pair.entity, mention.name) else None
    return Decision("same", rule, confidence, pair.entity, (), evidence, new_alias)


def _spelling_rules(mention: Mention, key: str, pool: list[EntityView]) -> Decision | None:
    """Rules 1-3: spelling alone, always on."""
    for entity in pool:
        if entity.name == mention.name:
            return _same(mention, key, "exact", EXACT_CONFIDENCE, KeyPair.equal(entity, 0))
    for entity in pool:
        if entity.key == key:
            pair = KeyPair.equal(entity, 0)
            return _same(mention, key, "normalized", NORMALIZED_CONFIDENCE, pair)
    for entity in pool:
        if key in entity.alias_keys:
            pair = KeyPair.equal(entity, 1 + entity.alias_keys.index(key))
            return _same(mention, key, "alias", ALIAS_CONFIDENCE, pair)
    return None


def look_alike_pairs(
    mention: Mention,
    key: str,
    pool: list[EntityView],
    is_known_word: Callable[[str], bool],
    names: NameGuard | None,
) -> list[KeyPair]:
    """Every look-alike spelling (one or two edits) of the compatible entities, pool order.

    Entities of a kind that holds people are compared with the name lists, and with
    ``NameGuard.typos_onto_known_names`` must be known on the stored side to converge; between
    a person mention and a stored person, a one-edit nickname pair never converges.
    """
    people = names.kinds if names is not None else frozenset[str]()
    with_names = names.with_names(is_known_word) if names is not None else is_known_word
    strict = names is not None and names.typos_onto_known_names
    nicknames = names.nicknames_for(mention.kind) if names is not None else None
    pairs: list[KeyPair] = []
    for entity in pool:
        person = entity.kind in people
        known = with_names if person else is_known_word
        pairs.extend(
            compare_spellings(
                key,
                entity,
                TYPO_MIN_KEY_LEN,
                known,
                known_target=strict and person,
                nicknames=nicknames if person else None,
            )
        )
    return pairs


def _typo_rule(
    mention: Mention, key: str, pairs: list[KeyPair]
) -> tuple[Decision | None, list[str]]:
    """Rule 4: fire only when the entities one edit away are one identity; also return their ids.

    An entity that the word guard keeps from converging (two known names) is still one edit
    away: it makes the mention ambiguous, as design §5.3's rule 4 counts it, so the other
    candidate does not win by default. Otherwise a name list that knows `katarina` and
    `katerina` would send `Katerina` to `Katerino`.

    "One" counts *identities*: candidates sharing one canonical key (legacy duplicates, or an
    ``other`` and a ``person`` with the same name) are one, and the preferred of them wins, as
    rule 2 would pick among them (design §9).
    """
    typo = [p for p in pairs if p.is_typo_candidate(TYPO_MIN_KEY_LEN)]
    near = [p for p in pairs if p.is_one_edit_neighbour(TYPO_MIN_KEY_LEN)]
    ids = sorted({p.entity.id for p in near})
    if not typo or len({p.entity.key for p in near}) != 1:
        return None, ids
    # pairs follow pool order (preferred entity first); within an entity, the closest spelling
    chosen = min(typo, key=lambda p: (_preference(p.entity), -p.similarity, p.index))
    extra: dict[str, object] = {
        "typo_candidates": ids,
        "edit": chosen.edit_evidence(),
        "blocked": _blocked(pairs),
    }
    decision = _same(mention, key, "typo", 1.0 - 1.0 / chosen.longer, chosen, extra=extra)
    return decision, ids


def _blocked(pairs: list[KeyPair]) -> list[dict[str, object]]:
    """One-edit spellings that a guard kept from being typo candidates, for the evidence."""
    return [
        {"entity": p.entity.id, "spelling": p.spelling, "reason": p.blocked}
        for p in pairs
        if p.blocked is not None
    ]


def nickname_pairs(
    mention: Mention, key: str, pool: Iterable[EntityView], names: NameGuard | None
) -> list[tuple[EntityView, str, tuple[str, str]]]:
    """(entity, spelling, the two given names) of each stored person with a spelling that is a
    nickname pair of the mention key, per entity its first such spelling, pool order. Empty
    unless the mention's kind holds people (and so the entity's, which is the same), and at
    once for a given name the list does not know: most names cost one lookup."""
    nicknames = names.nicknames_for(mention.kind) if names is not None else None
    if nicknames is None or names is None:
        return []
    given, surname = split_given(key)
    related = nicknames.related.get(given)
    if not related:
        return []
    found: list[tuple[EntityView, str, tuple[str, str]]] = []
    for entity in pool:
        if entity.kind not in names.kinds:
            continue
        for index, spelling_key in enumerate((entity.key, *entity.alias_keys)):
            other, rest = split_given(spelling_key)
            if rest == surname and other in related:
                spelling = entity.spellings()[index][1]
                found.append((entity, spelling, (given, other)))
                break
    return found


NICKNAME_SIMILARITY = 1.0
"""A nickname link's similarity is that of the surname keys, which are equal (design §5.3)."""


def _nickname_links(
    links: list[ReviewLink], found: list[tuple[EntityView, str, tuple[str, str]]]
) -> list[ReviewLink]:
    """`links` plus a `nickname` link to each entity of `found` that has no link yet: a pair an
    edit rule already links (`Jon Snow`/`John Snow`, `known_words`) keeps its edit reason."""
    linked = {link.entity.id for link in links}
    extra = [
        ReviewLink(entity, NICKNAME_SIMILARITY, 0, "nickname")
        for entity, _, _ in found
        if entity.id not in linked
    ]
    if not extra:
        return links
    return sorted([*links, *extra], key=lambda link: (-link.similarity, link.entity.id))


def _review_links(pairs: list[KeyPair]) -> list[ReviewLink]:
    """POSSIBLY_SAME_AS proposals: per entity its closest qualifying spelling; best first."""
    best: dict[str, ReviewLink] = {}
    for pair in pairs:
        reason = review_reason(
            pair,
            typo_min_len=TYPO_MIN_KEY_LEN,
            review_min_len=REVIEW_MIN_KEY_LEN,
            two_edit_min_similarity=REVIEW_TWO_EDIT_MIN_SIMILARITY,
        )
        known = best.get(pair.entity.id)
        if reason is None or (known is not None and known.similarity >= pair.similarity):
            continue
        best[pair.entity.id] = ReviewLink(pair.entity, pair.similarity, pair.distance, reason)
    return sorted(best.values(), key=lambda link: (-link.similarity, link.entity.id))


@dataclass(frozen=True, slots=True)
class FarLink:
    """The review link a stored entity gets from a mention key that none of its spellings is
    within one edit of: all the rules can make of such an entity (`far_link`), worked out from
    its keys alone, so a batch builds the entity only if the link is kept (`FarLookAlikes`)."""

    entity_id: str
    kind: str
    similarity: float
    distance: int
    reason: ReviewReason


NEAR: Literal["near"] = "near"
"""`far_link`'s answer for an entity that rules 1-4 may use: it must be read whole."""


def far_link(
    mention_key: str, entity_id: str, kind: str, keys: Sequence[str]
) -> FarLink | Literal["near"] | None:
    """What the rules can make of a stored entity with these spelling keys (name key first) for
    `mention_key`: `NEAR` where one is equal or one edit away (rules 1-4 may use it), else its
    review link as `decide` gives it (the closest qualifying spelling, the first of equals), or
    None where it gets none (a pair too short or too far, design §5.3)."""
    best: FarLink | None = None
    for key in keys:
        found = spelling_distance(mention_key, key, TYPO_MIN_KEY_LEN)
        if found is None:
            continue
        distance, word_order = found
        if distance <= 1 and not word_order:
            return NEAR
        longer, shorter = max(len(key), len(mention_key)), min(len(key), len(mention_key))
        reason = far_reason(
            distance,
            longer,
            shorter,
            word_order,
            review_min_len=REVIEW_MIN_KEY_LEN,
            two_edit_min_similarity=REVIEW_TWO_EDIT_MIN_SIMILARITY,
        )
        similarity = key_similarity(distance, longer)
        if reason is not None and (best is None or best.similarity < similarity):
            best = FarLink(entity_id, kind, similarity, distance, reason)
    return best


@dataclass(frozen=True, slots=True)
class FarLookAlikes:
    """The far look-alikes a mention key's review read met (entity id → its `FarLink`), and
    how to build the entities of the links a decision keeps (`views`: ids → their entities).

    A new mention may have hundreds of review candidates at a million entities and keeps
    `MAX_REVIEW_LINKS` links: the others are only counted (`review_candidates`)."""

    links: Mapping[str, FarLink]
    views: Callable[[Collection[str]], Mapping[str, EntityView]]

    def joined(
        self, links: list[ReviewLink], pool: Collection[str], kind: str
    ) -> tuple[list[ReviewLink], int]:
        """The links kept among `links` (best first) and these, and how many there were in
        all. `pool`: the ids the decision weighed whole (their links are among `links`)."""
        far = [
            link
            for entity_id, link in self.links.items()
            if entity_id not in pool and kinds_compatible(kind, link.kind)
        ]
        if not far:
            return links[:MAX_REVIEW_LINKS], len(links)
        ranked: list[tuple[float, str, ReviewLink | FarLink]] = [
            *((-link.similarity, link.entity.id, link) for link in links),
            *((-link.similarity, link.entity_id, link) for link in far),
        ]
        ranked.sort(key=lambda item: (item[0], item[1]))
        kept = [link for _, _, link in ranked[:MAX_REVIEW_LINKS]]
        views = self.views([link.entity_id for link in kept if isinstance(link, FarLink)])
        return [
            link
            if isinstance(link, ReviewLink)
            else ReviewLink(views[link.entity_id], link.similarity, link.distance, link.reason)
            for link in kept
        ], len(ranked)


def decide(
    mention: Mention,
    candidates: Iterable[EntityView],
    *,
    fuzzy: bool,
    is_known_word: Callable[[str], bool],
    names: NameGuard | None = None,
    key: str | None = None,
    far: FarLookAlikes | None = None,
) -> Decision:
    """Resolve ``mention`` against the fetched ``candidates`` (design §5.3), and ``far``: the
    look-alikes its review read set aside unread, which can only add review links.

    ``is_known_word`` is the lexicon of the word guard (it receives lower-case words of a key);
    ``names`` adds given names and surnames for pairs with an entity of a kind that holds people
    (the mention's own kind, or the entity's when the mention is ``other``).
    The evidence always names the rule and the mention key; fuzzy decisions add the typo
    candidate ids, the guards that blocked a one-edit spelling, and ``review_candidates`` (how
    many entities qualified for a review link before the cap of ``MAX_REVIEW_LINKS``), and a new
    person the nickname pairs it met (``nicknames``). ``key`` is the mention's entity key, if
    the caller has it at hand.
    """
    if key is None:
        key = remembered_entity_key(mention.name)
    pool = compatible_pool(mention.kind, candidates)
    spelled = _spelling_rules(mention, key, pool)
    if spelled is not None:
        return spelled
    evidence: dict[str, object] = {"rule": "new", "mention_key": key, "fuzzy": fuzzy}
    if not fuzzy:
        return Decision("new", "new", NEW_CONFIDENCE, None, (), evidence)
    pairs = look_alike_pairs(mention, key, pool, is_known_word, names)
    typo, typo_ids = _typo_rule(mention, key, pairs)
    if typo is not None:
        return typo
    nicknamed = nickname_pairs(mention, key, pool, names)
    links = _nickname_links(_review_links(pairs), nicknamed)
    if far is None:
        links, candidates_met = links[:MAX_REVIEW_LINKS], len(links)
    else:
        links, candidates_met = far.joined(links, {entity.id for entity in pool}, mention.kind)
    evidence.update(
        typo_candidates=typo_ids, blocked=_blocked(pairs), review_candidates=candidates_met
    )
    if nicknamed:
        evidence["nicknames"] = [
            {"entity": entity.id, "spelling": spelling, "given_names": list(given)}
            for entity, spelling, given in nicknamed
        ]
    return Decision("new", "new", NEW_CONFIDENCE, None, tuple(links), evidence)
