"""Seeded entity names that look like what extractors find, for the mentions benchmark.

Resolution cost depends on the shape of the names: how many stored keys lie one or two edits
from a mention (Maria/Mario Lopez), how long the keys are, how many carry digits. Only Faker's
word lists are used, drawn with the caller's `random.Random`, so the same seed gives the same
names on every machine and a million names take seconds, not minutes.
"""

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass

from bench.corpus import Corpus
from castlegraph.resolver.entity_keys import entity_key

PERSON_LOCALES = (
    "en_US", "de_DE", "fr_FR", "es_ES", "it_IT", "pt_BR", "nl_NL", "sv_SE",
    "tr_TR", "cs_CZ", "fi_FI", "hu_HU", "en_IN", "ru_RU", "el_GR", "ja_JP",
)  # fmt: skip
COMPANY_LOCALES = ("en_US", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "sv_SE")
KIND_WEIGHTS = {
    "person": 0.40,
    "organization": 0.12,
    "place": 0.13,
    "tool": 0.20,
    "document": 0.10,
    "other": 0.05,
}
"""Shares of the stored entities; `other` is what an extractor could not classify."""
ALIAS_SHARE = {"person": 0.06, "organization": 0.10, "tool": 0.08}
TOOL_SUFFIXES = ("DB", "JS", "QL", "Hub", "Flow", "Kit", "Lab", "ify", "OS", "IO", "ly", "Base")
TOOL_NOUNS = ("Studio", "Cloud", "Engine", "Server", "Desktop", "Analytics", "Pipeline", "CLI")
TICKET_PREFIXES = ("SR", "INC", "CHG", "OPS", "DATA", "SEC", "PLAT", "CORE")


@dataclass(frozen=True, slots=True)
class Named:
    """One entity to store (or one name to mention): its spelling, kind and recorded aliases."""

    name: str
    kind: str
    aliases: tuple[str, ...] = ()


def _names(module: str, *attributes: str) -> list[str]:
    """The first non-trivial list among a Faker provider's attributes (tuples or weight dicts)."""
    provider = importlib.import_module(module).Provider
    for attribute in attributes:
        found = list(getattr(provider, attribute, ()))
        if len(found) > 1:
            return found
    return []


class NameGenerator:
    """Word pools fixed at construction; names are drawn with a caller's `random.Random`.

    People combine given names and surnames of sixteen Faker locales (Latin, Cyrillic, Greek,
    CJK), organisations take a surname and a legal suffix of their country, places mix Italian
    and German town lists with English town patterns, tools are made-up words with the suffixes
    software names wear (`…DB`, `….js`, `… Studio`), and a share of tools and all documents
    carry digits (`Zorvadb 3.11`, `SR-2023-052`, `RFC 7231`)."""

    def __init__(self, seed: int) -> None:
        self.given: list[list[str]] = []
        self.surnames: list[list[str]] = []
        for locale in PERSON_LOCALES:
            module = f"faker.providers.person.{locale}"
            given = _names(module, "first_names") or (
                _names(module, "first_names_male") + _names(module, "first_names_female")
            )
            surnames = _names(module, "last_names", "last_names_male")
            if given and surnames:
                self.given.append(given)
                self.surnames.append(surnames)
        self.suffixes = [
            _names(f"faker.providers.company.{locale}", "company_suffixes")
            for locale in COMPANY_LOCALES
        ]
        self.towns = _names("faker.providers.address.it_IT", "cities") + _names(
            "faker.providers.address.de_DE", "cities"
        )
        self.words = Corpus(seed).words
        self._makers: dict[str, Callable[[random.Random], str]] = {
            "person": self.person,
            "organization": self.organization,
            "place": self.place,
            "tool": self.tool,
            "document": self.document,
        }

    def person(self, rng: random.Random) -> str:
        culture = rng.randrange(len(self.given))
        given, surnames = self.given[culture], self.surnames[culture]
        first, last = rng.choice(given), rng.choice(surnames)
        roll = rng.random()
        if roll < 0.10:
            return f"{first} {rng.choice(given)[0]}. {last}"
        if roll < 0.15:
            return f"{first} {last}-{rng.choice(surnames)}"
        if roll < 0.20:
            return f"{first} {rng.choice(given)} {last}"
        return f"{first} {last}"

    def organization(self, rng: random.Random) -> str:
        culture = rng.randrange(len(self.suffixes))
        surnames = self.surnames[min(culture, len(self.surnames) - 1)]
        roll = rng.random()
        if roll < 0.5:
            return f"{rng.choice(surnames)} {rng.choice(self.suffixes[culture])}"
        if roll < 0.75:
            return f"{rng.choice(surnames)} & {rng.choice(surnames)}"
        return f"{self.tool(rng)} {rng.choice(('Labs', 'Systems', 'Group', 'Partners'))}"

    def place(self, rng: random.Random) -> str:
        roll = rng.random()
        if roll < 0.45:
            return rng.choice(self.towns)
        given = rng.choice(self.given[0])
        if roll < 0.75:
            ending = rng.choice(("ton", "ville", "berg", "borough", "port", "haven", "field"))
            prefix = rng.choice(("North", "East", "West", "South", "New", "Port"))
            return f"{prefix} {given}{ending}"
        return f"{rng.choice(('Lake', 'Mount', 'Fort', 'Cape'))} {rng.choice(self.surnames[0])}"

    def tool(self, rng: random.Random) -> str:
        word = rng.choice(self.words).capitalize()
        roll = rng.random()
        if roll < 0.45:
            return word + rng.choice(TOOL_SUFFIXES)
        if roll < 0.55:
            return f"{word}.js"
        if roll < 0.80:
            return f"{word} {rng.choice(TOOL_NOUNS)}"
        return f"{word}{rng.choice(self.words)}"

    def versioned(self, rng: random.Random) -> str:
        tool = self.tool(rng)
        roll = rng.random()
        if roll < 0.5:
            return f"{tool} {rng.randint(1, 20)}.{rng.randint(0, 15)}"
        if roll < 0.75:
            return f"{tool} v{rng.randint(1, 12)}"
        return f"{tool} {rng.randint(2000, 2026)}"

    def document(self, rng: random.Random) -> str:
        roll = rng.random()
        if roll < 0.45:
            prefix, year = rng.choice(TICKET_PREFIXES), rng.randint(2015, 2026)
            return f"{prefix}-{year}-{rng.randint(1, 999):03d}"
        if roll < 0.65:
            return f"RFC {rng.randint(700, 9800)}"
        if roll < 0.80:
            return f"ISO {rng.randint(1000, 99999)}"
        return f"CVE-{rng.randint(2010, 2026)}-{rng.randint(1000, 99999)}"

    def named(self, rng: random.Random) -> Named:
        """A name of a kind drawn by `KIND_WEIGHTS`, sometimes with one recorded alias."""
        kind = rng.choices(list(KIND_WEIGHTS), weights=list(KIND_WEIGHTS.values()))[0]
        if kind == "other":
            return Named(self._makers[rng.choice(list(self._makers))](rng), kind)
        if kind == "tool" and rng.random() < 0.3:
            return Named(self.versioned(rng), kind)
        name = self._makers[kind](rng)
        if rng.random() < ALIAS_SHARE.get(kind, 0.0):
            alias = _alias(name, kind)
            if alias is not None and entity_key(alias) != entity_key(name):
                return Named(name, kind, (alias,))
        return Named(name, kind)

    def distinct(self, count: int, rng: random.Random, taken: set[tuple[str, str]]) -> list[Named]:
        """`count` names whose (kind, key) is not in `taken` yet (which they are added to)."""
        found: list[Named] = []
        while len(found) < count:
            named = self.named(rng)
            identity = (named.kind, entity_key(named.name))
            if identity not in taken:
                taken.add(identity)
                found.append(named)
        return found


def _alias(name: str, kind: str) -> str | None:
    """Another spelling an entity is known by: an initial, a dropped suffix, a split word."""
    words = name.split()
    if kind == "person" and len(words) >= 2:
        return f"{words[0][0]}. {words[-1]}"
    if kind == "organization" and len(words) >= 2:
        return words[0]
    if kind == "tool" and len(words) == 1 and len(name) > 4:
        return f"{name[:-2]} {name[-2:]}"
    return None
