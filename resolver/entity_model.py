"""Value types of entity resolution: what the rules read (entities, mentions) and return.

Plain frozen dataclasses with no behaviour beyond construction helpers, so the graph layer can
build them from records and the API can serialise them. ``resolver.entity_rules`` re-exports
them next to the decision procedure.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from castlegraph.resolver.entity_keys import entity_key, normalize_kind
from castlegraph.resolver.errors import EmptyLabel

Verdict = Literal["same", "new"]
RuleName = Literal["exact", "normalized", "alias", "typo", "new"]
ReviewReason = Literal[
    "one_edit_short_key",
    "ambiguous_typo",
    "digit_edit",
    "known_words",
    "unknown_name",
    "two_edits",
    "word_order",
    "nickname",
]
SpellingRole = Literal["name", "alias"]


@dataclass(frozen=True, slots=True)
class EntityView:
    """A stored entity as the rules see it.

    ``kind`` is normalised, ``key`` is ``entity_key(name)`` and ``alias_keys[i]`` is the key of
    ``aliases[i]``, as the graph layer stores them (design §3).
    """

    id: str
    name: str
    kind: str
    key: str
    aliases: tuple[str, ...] = ()
    alias_keys: tuple[str, ...] = ()

    @classmethod
    def of(cls, id: str, name: str, kind: str, aliases: Iterable[str] = ()) -> EntityView:
        """Build a view, deriving the key and alias keys (tests, migrations, dry runs)."""
        spellings = tuple(aliases)
        return cls(
            id=id,
            name=name,
            kind=normalize_kind(kind),
            key=entity_key(name),
            aliases=spellings,
            alias_keys=tuple(entity_key(a) for a in spellings),
        )

    def spellings(self) -> tuple[tuple[SpellingRole, str, str], ...]:
        """(role, spelling, key) for the name, then each alias in stored order."""
        found: list[tuple[SpellingRole, str, str]] = [("name", self.name, self.key)]
        for i, alias_key in enumerate(self.alias_keys):
            spelling = self.aliases[i] if i < len(self.aliases) else alias_key
            found.append(("alias", spelling, alias_key))
        return tuple(found)


@dataclass(frozen=True, slots=True)
class Mention:
    """A sighting ``(name, kind)``: name trimmed, kind normalised (build with ``make_mention``)."""

    name: str
    kind: str

    @property
    def key(self) -> str:
        """The mention's entity key (design §5.1)."""
        return entity_key(self.name)


def make_mention(name: str, kind: str) -> Mention:
    """Trim the name and normalise the kind; a blank name or kind raises :class:`EmptyLabel`."""
    trimmed = name.strip()
    if not trimmed:
        raise EmptyLabel("name")
    return Mention(name=trimmed, kind=normalize_kind(kind))


@dataclass(frozen=True, slots=True)
class ReviewLink:
    """A POSSIBLY_SAME_AS proposal: the new entity resembles ``entity`` (keys compared)."""

    entity: EntityView
    similarity: float
    distance: int
    reason: ReviewReason


@dataclass(frozen=True, slots=True)
class Decision:
    """The verdict on one mention, with the rule that fired and why.

    ``new_alias`` is the mention's spelling when a ``same`` decision should append it to the
    entity's aliases (design §5.3 *Same*); ``possibly_same_as`` is only ever filled for ``new``.
    """

    decision: Verdict
    rule: RuleName
    confidence: float
    entity: EntityView | None
    possibly_same_as: tuple[ReviewLink, ...] = ()
    evidence: dict[str, object] = field(default_factory=dict)
    new_alias: str | None = None


def is_alias_new(entity: EntityView, spelling: str) -> bool:
    """True when ``spelling`` is neither the canonical name nor a recorded alias (byte for byte).

    The name is never rewritten and never listed among the aliases; any other spelling a
    ``same`` decision sees is worth keeping, so later sightings converge by rule ``alias``.
    """
    return spelling != entity.name and spelling not in entity.aliases
