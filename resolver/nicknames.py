"""Nicknames: `Bob Smith` and `Robert Smith` may be one person, but never by a typo (design §5.3).

Two keys are a *nickname pair* when the hand-curated list pairs their first words (`bob` with
`robert`, either way) and the rest, the surname key, is equal: a review link `nickname`, never a
convergence, only between kinds that hold people. The list is data the service hands in
(`api.service.nicknames`). Every stored spelling's index keys include its own key, so a mention
finds its pairs by probing the keys it would have with each related given name (`probe_keys`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from castlegraph.resolver.entity_keys import entity_key

MAX_RELATED = 64
"""Given names probed per mention at most: the list's longest entry has a few dozen; a cap keeps
a corrupt or extended list from turning one mention into hundreds of probes."""


def split_given(key: str) -> tuple[str, str]:
    """A key as (given name, surname key): its first word and the rest (empty for one word)."""
    given, _, surname = key.partition(" ")
    return given, surname


def _word_key(name: str) -> str:
    """`entity_key` of a listed name; most are lower-case ASCII letters, their own key already."""
    return name if name.isascii() and name.isalpha() and name.islower() else entity_key(name)


@dataclass(frozen=True, slots=True)
class Nicknames:
    """Given names and their nicknames, both ways: ``related[name]`` holds every name the list
    pairs with it (its nicknames, and the names it is a nickname of). Keys of one word only."""

    related: Mapping[str, frozenset[str]]

    @classmethod
    def of(cls, pairs: Iterable[tuple[str, str]]) -> Nicknames:
        """From (name, nickname) pairs as the list writes them, keyed like entity keys (design
        §5.1: `K.C.` is `kc`); a name paired with itself, or one of several words, is dropped."""
        related: dict[str, set[str]] = {}
        for name, nickname in pairs:
            a, b = _word_key(name), _word_key(nickname)
            if a == b or " " in a or " " in b or not a or not b:
                continue
            related.setdefault(a, set()).add(b)
            related.setdefault(b, set()).add(a)
        return cls({name: frozenset(names) for name, names in related.items()})

    def __len__(self) -> int:
        return len(self.related)

    def knows(self, given: str) -> bool:
        """Whether the list has `given` at all, as a name or a nickname."""
        return given in self.related

    def are_pair(self, a: str, b: str) -> bool:
        """Whether one given name is a nickname of the other (either way)."""
        return b in self.related.get(a, ())

    def pair_of(self, mention_key: str, key: str) -> tuple[str, str] | None:
        """The two given names when the keys are a nickname pair (same surname key), else None."""
        given, surname = split_given(mention_key)
        other, other_surname = split_given(key)
        if surname != other_surname or not self.are_pair(given, other):
            return None
        return given, other

    def probe_keys(self, key: str) -> frozenset[str]:
        """The keys a nickname pair of `key` would have: each related given name, the same
        surname key. Sorted before the cap, so the same names are probed every time."""
        given, surname = split_given(key)
        names = sorted(self.related.get(given, ()))[:MAX_RELATED]
        return frozenset(f"{name} {surname}" if surname else name for name in names)
