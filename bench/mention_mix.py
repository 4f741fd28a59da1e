"""Batches of mentions as an extractor posts them: mostly names the graph knows, some not.

Each mention is drawn from one `Category`, so the report can show, per category, which rules
fired: the sanity check that the benchmark exercised every path of design §5.3. Known entities
are drawn uniformly from the whole stored set, the worst case for any cache.
"""

import random
import string
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bench.names import Named
from castlegraph.resolver.entity_keys import entity_key


class Category(StrEnum):
    """The path of design §5.3 a mention is meant to take. A typo may end new with a review
    link (the slip ambiguous, too short, or between two real words); a changed digit
    (`Python 3.11` → `3.12`) is a new entity, never a typo."""

    EXACT = "exact"
    VARIANT = "variant"  # case, punctuation or spacing: the same key
    ALIAS = "alias"  # a recorded alias of a stored entity
    OTHER_KIND = "other_kind"  # a stored name, kind `other`
    TYPO = "typo"  # one letter substituted, dropped, doubled or swapped
    DIGIT = "digit"  # one digit of a digit-bearing name changed
    NEW = "new"  # never seen before
    NEW_AGAIN = "new_again"  # a name this run introduced in an earlier batch


SHARES = {
    Category.EXACT: 0.35,
    Category.VARIANT: 0.15,
    Category.ALIAS: 0.04,
    Category.OTHER_KIND: 0.05,
    Category.TYPO: 0.10,
    Category.DIGIT: 0.05,
    Category.NEW: 0.20,
    Category.NEW_AGAIN: 0.06,
}


@dataclass(frozen=True, slots=True)
class Drawn:
    category: Category
    name: str
    kind: str


class MentionMix:
    """Draws mentions of `stored` entities and of `fresh` names (used once each as `new`)."""

    def __init__(self, stored: Sequence[Named], fresh: Sequence[Named], drawers: Sequence[str]):
        self.stored = stored
        self.fresh = list(fresh)
        self.drawers = drawers
        self.with_alias = [i for i, n in enumerate(stored) if n.aliases]
        self.with_digit = [i for i, n in enumerate(stored) if any(c.isdigit() for c in n.name)]
        self.introduced: list[Named] = []

    def draw(self, rng: random.Random) -> Drawn:
        category = rng.choices(list(SHARES), weights=list(SHARES.values()))[0]
        if category is Category.NEW_AGAIN and not self.introduced:
            category = Category.NEW
        if category is Category.NEW:
            named = self.fresh.pop()
            self.introduced.append(named)
        elif category is Category.NEW_AGAIN:
            named = rng.choice(self.introduced)
        else:
            return self._known(category, rng)
        return Drawn(category, named.name, named.kind)

    def _known(self, category: Category, rng: random.Random) -> Drawn:
        """A stored entity, spelled or classified the way `category` says."""
        if category is Category.ALIAS and self.with_alias:
            named = self.stored[rng.choice(self.with_alias)]
            return Drawn(category, rng.choice(named.aliases), named.kind)
        if category is Category.DIGIT and self.with_digit:
            named = self.stored[rng.choice(self.with_digit)]
            return Drawn(category, _change_digit(named.name, rng), named.kind)
        named = rng.choice(self.stored)
        if category is Category.VARIANT:
            return Drawn(category, variant(named.name, rng), named.kind)
        if category is Category.TYPO:
            return Drawn(category, typo(named.name, rng), named.kind)
        if category is Category.OTHER_KIND:
            return Drawn(category, named.name, "other")
        return Drawn(Category.EXACT, named.name, named.kind)  # also alias/digit with no source

    def batch(self, size: int, rng: random.Random) -> tuple[list[Category], dict[str, Any]]:
        """The categories drawn and the JSON body of `POST /api/mentions`."""
        drawn = [self.draw(rng) for _ in range(size)]
        body = {
            "mentions": [
                {
                    "drawer": rng.choice(self.drawers),
                    "name": d.name,
                    "kind": d.kind,
                    "extractor": "bench",
                    "origin": {"document": f"doc-{rng.randrange(10_000)}", "chunk": i},
                }
                for i, d in enumerate(drawn)
            ]
        }
        return [d.category for d in drawn], body


def variant(name: str, rng: random.Random) -> str:
    """Another spelling with the same key: case, hyphens for spaces, dots, stray punctuation."""
    options = [
        name.upper(),
        name.lower(),
        name.replace(" ", "-"),
        name.replace(" ", "  "),
        name.replace("-", " "),
        f"{name},",
        f"({name})",
        name.replace(" ", " . ", 1),
    ]
    rng.shuffle(options)
    for option in options:
        if option != name and entity_key(option) == entity_key(name):
            return option
    return name


def typo(name: str, rng: random.Random) -> str:
    """One slip on a letter (never a digit) that changes the key."""
    letters = [i for i, ch in enumerate(name) if ch.isalpha()]
    for _ in range(20):
        i = rng.choice(letters)
        edit = rng.choice(("substitute", "drop", "double", "swap"))
        if edit == "substitute":
            new = name[:i] + rng.choice(string.ascii_lowercase) + name[i + 1 :]
        elif edit == "drop":
            new = name[:i] + name[i + 1 :]
        elif edit == "double":
            new = name[:i] + name[i] + name[i:]
        elif i + 1 < len(name) and name[i + 1].isalpha():
            new = name[:i] + name[i + 1] + name[i] + name[i + 2 :]
        else:
            continue
        if new.strip() and entity_key(new) != entity_key(name):
            return new
    return name + "x"


def _change_digit(name: str, rng: random.Random) -> str:
    digits = [i for i, ch in enumerate(name) if ch.isdigit()]
    i = rng.choice(digits)
    replacement = rng.choice([d for d in string.digits if d != name[i]])
    return name[:i] + replacement + name[i + 1 :]
