"""The labelled mention stream of `bench quality`: real name lists, real variants, true ids.

Names come from lists that PyPI packages ship, seeded: Faker's person names across twenty
locales of five regions (`REGIONS`), its company and city names across ten, Pygments' lexer
names as software, products and tickets built from Faker
words with model numbers. Every mention carries its true entity's id and the form it was
written in (`canonical` or one of `bench.er_quality.variants.FORMS`).
"""

import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from faker import Faker
from pygments.lexers import get_all_lexers
from rapidfuzz.distance import OSA

from bench.er_quality.variants import FORM_WEIGHTS, FORMS
from castlegraph.resolver.entity_keys import deletion_keys, entity_key

LOCALES = (
    "en_US", "de_DE", "fr_FR", "es_ES", "it_IT", "pt_BR", "nl_NL", "pl_PL", "cs_CZ", "sv_SE",
)  # fmt: skip
"""Companies and places: the lexicon of the word guard covers the first seven languages; the
last three are not."""

REGIONS: dict[str, tuple[str, ...]] = {
    "English": ("en_US", "en_GB", "en_IE", "en_NZ"),
    "Western Europe": ("de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "sv_SE"),
    "Eastern Europe": ("pl_PL", "cs_CZ", "sk_SK", "ru_RU", "uk_UA"),
    "South Asia": ("en_IN", "hi_IN"),
    "Latin America": ("es_MX", "pt_BR", "es_AR"),
}
"""Where the people of the stream come from. Russian and Ukrainian names are written in Latin
letters (`latin`), as records in a Latin-script language carry them; Hindi names keep their
Devanagari (no list of the word guard knows them: they test the rules, not the lists)."""
PERSON_LOCALES = tuple(locale for group in REGIONS.values() for locale in group)
REGION_OF = {locale: region for region, group in REGIONS.items() for locale in group}
CYRILLIC_LOCALES = frozenset({"ru_RU", "uk_UA"})

BASE_COUNTS = {"person": 3600, "company": 1200, "place": 1200, "product": 400}
NEAR_NAME_PAIRS, NEAR_SURNAME_PAIRS = 250, 150
VERSION_FAMILIES, PRODUCT_FAMILIES, TICKET_FAMILIES = 150, 150, 120
MENTIONS_PER_ENTITY = ((1, 2, 3, 4, 5, 6, 8, 12), (30, 20, 15, 10, 8, 7, 6, 4))
CANONICAL_SHARE = 0.5
"""Share of the mentions after an entity's first that repeat its canonical spelling."""
REDRAWS = 8
EDITING_FORMS = frozenset(
    {"typo", "transposition", "two_substitutions", "two_deletions", "dropped_letter", "ocr",
     "phonetic"}
)  # fmt: skip
"""Forms that must change the key: one that does not (`ocr` of `ß`) is drawn again."""
PEOPLE_ONLY = frozenset({"initials", "word_order"})
"""Forms only people's names take: an initial, and surname first (`Lovelace, Ada`)."""


@dataclass(frozen=True, slots=True)
class TrueEntity:
    id: str
    name: str
    kind: str
    group: str  # plain | near_name | digit_sibling
    source: str  # locale, or the package the name list came from


@dataclass(frozen=True, slots=True)
class LabelledMention:
    name: str
    kind: str
    truth: str
    form: str


class _Registry:
    """True entities by kind, refusing a name whose key another entity of the kind has."""

    def __init__(self) -> None:
        self.entities: list[TrueEntity] = []
        self.keys: defaultdict[str, set[str]] = defaultdict(set)

    def add(self, name: str, kind: str, group: str, source: str) -> bool:
        key = entity_key(name)
        if not name.strip() or key in self.keys[kind]:
            return False
        self.keys[kind].add(key)
        self.entities.append(
            TrueEntity(f"{kind}:{len(self.entities):05d}", name, kind, group, source)
        )
        return True


_LATIN = dict(
    zip(
        "абвгдезийклмнопрстуфыэіїґ",
        ["a", "b", "v", "g", "d", "e", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s",
         "t", "u", "f", "y", "e", "i", "yi", "g"],
        strict=True,
    )
) | {"ё": "yo", "ж": "zh", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "",
     "ь": "", "ю": "yu", "я": "ya", "є": "ye", "'": ""}  # fmt: skip
"""Russian and Ukrainian letters in Latin, the way passports and newspapers spell them
(`Щербаков` -> `Shcherbakov`, `Юлія` -> `Yuliya`); `г` is `g` in both (`h` in Ukrainian
passports: the difference does not matter to a benchmark of typos)."""


def latin(name: str) -> str:
    """`name` with Cyrillic letters written in Latin ones, capitals kept."""
    out = []
    for ch in name:
        written = _LATIN.get(ch.lower())
        if written is None:
            out.append(ch)
        else:
            out.append(written.capitalize() if ch.isupper() else written)
    return "".join(out)


def _fakers(seed: int, locales: tuple[str, ...] = LOCALES) -> Iterator[tuple[str, Faker]]:
    for i, locale in enumerate(locales):
        fake = Faker(locale)
        fake.seed_instance(seed * 1000 + i)
        _sort_lists(fake)
        yield locale, fake


def _sort_lists(fake: Faker) -> None:
    """Sort every list of names a provider draws from: some are built from a set (it_IT's
    cities), so their order, and the seeded draw, would change with PYTHONHASHSEED."""
    for provider in fake.get_providers():
        for name, value in vars(type(provider)).items():
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                setattr(provider, name, sorted(value))


def _one_edit_pairs(words: set[str]) -> list[tuple[str, str]]:
    """Pairs of distinct words (≥ 4 letters) exactly one OSA edit apart, sorted."""
    by_key: defaultdict[str, set[str]] = defaultdict(set)
    for word in words:
        if len(word) >= 4:
            for key in deletion_keys(word.lower()):
                by_key[key].add(word)
    pairs = {
        (a, b)
        for group in by_key.values()
        for a in group
        for b in group
        if a < b and OSA.distance(a.lower(), b.lower()) == 1
    }
    return sorted(pairs)


def _people(reg: _Registry, rng: random.Random, seed: int, scale: float) -> None:
    per_locale = round(BASE_COUNTS["person"] * scale / len(PERSON_LOCALES))
    firsts: dict[str, set[str]] = {}
    lasts: dict[str, set[str]] = {}
    for locale, fake in _fakers(seed, PERSON_LOCALES):
        spell = latin if locale in CYRILLIC_LOCALES else str
        firsts[locale] = {spell(fake.first_name()) for _ in range(3000)}
        lasts[locale] = {spell(fake.last_name()) for _ in range(3000)}
        for _ in range(per_locale):
            name = spell(f"{fake.first_name()} {fake.last_name()}")
            reg.add(name, "person", "plain", locale)
    near = [("first", loc, p) for loc in PERSON_LOCALES for p in _one_edit_pairs(firsts[loc])]
    near_last = [("last", loc, p) for loc in PERSON_LOCALES for p in _one_edit_pairs(lasts[loc])]
    chosen = rng.sample(near, min(len(near), round(NEAR_NAME_PAIRS * scale)))
    chosen += rng.sample(near_last, min(len(near_last), round(NEAR_SURNAME_PAIRS * scale)))
    for which, locale, (a, b) in chosen:
        other = rng.choice(sorted(lasts[locale] if which == "first" else firsts[locale]))
        for word in (a, b):
            name = f"{word} {other}" if which == "first" else f"{other} {word}"
            reg.add(name, "person", "near_name", locale)


def _companies_and_places(reg: _Registry, seed: int, scale: float) -> None:
    for kind, count in (("company", BASE_COUNTS["company"]), ("place", BASE_COUNTS["place"])):
        per_locale = round(count * scale / len(LOCALES))
        for locale, fake in _fakers(seed + (1 if kind == "company" else 2)):
            made = 0
            for _ in range(per_locale * 20):
                name = fake.company() if kind == "company" else fake.city()
                made += reg.add(name, kind, "plain", locale)
                if made == per_locale:
                    break


def _software(reg: _Registry, rng: random.Random, scale: float) -> None:
    names = sorted({lexer[0] for lexer in get_all_lexers()})
    for name in names:
        reg.add(name, "software", "plain", "pygments")
    plain = [n for n in names if n.isalpha() and len(n) >= 4]
    for name in rng.sample(plain, min(len(plain), round(VERSION_FAMILIES * scale))):
        major, minor = rng.randint(1, 9), rng.randint(0, 18)
        for step in range(rng.choice((2, 2, 3))):
            reg.add(f"{name} {major}.{minor + step}", "software", "digit_sibling", "pygments")


def _products_and_tickets(reg: _Registry, rng: random.Random, seed: int, scale: float) -> None:
    fake = Faker("en_US")
    fake.seed_instance(seed)
    _sort_lists(fake)
    words = [w.capitalize() for w in fake.get_words_list() if len(w) >= 4]
    for _ in range(round(BASE_COUNTS["product"] * scale)):
        model = rng.randint(1, 99) * 10
        reg.add(f"{fake.last_name()} {rng.choice(words)} {model}", "product", "plain", "faker")
    for _ in range(round(PRODUCT_FAMILIES * scale)):
        brand, word, model = fake.last_name(), rng.choice(words), rng.randint(1, 90) * 10
        for step in (0, rng.choice((1, 10))):
            reg.add(f"{brand} {word} {model + step}", "product", "digit_sibling", "faker")
    for _ in range(round(TICKET_FAMILIES * scale)):
        prefix, year = rng.choice(("SR", "INC", "CHG", "BUG", "REQ")), rng.randint(2015, 2025)
        number = rng.randint(1, 998)
        for step in range(rng.choice((2, 3))):
            reg.add(f"{prefix}-{year}-{number + step:03d}", "ticket", "digit_sibling", "synthetic")


def true_entities(seed: int, scale: float) -> list[TrueEntity]:
    """Every true entity, with planted hard negatives: separate entities that look like one
    another, given names or surnames one edit apart with the rest equal (`Maria Lopez` /
    `Mario Lopez`, `Meyer` / `Meier`), and digit siblings (`Python 3.11` / `Python 3.12`,
    `SR-2023-052` / `SR-2023-053`). Within a kind no two share an entity key (that would be
    the same name), and no variant takes another entity's key (`_variant`)."""
    rng = random.Random(seed)
    reg = _Registry()
    _people(reg, rng, seed, scale)
    _companies_and_places(reg, seed, scale)
    _software(reg, rng, scale)
    _products_and_tickets(reg, rng, seed, scale)
    return reg.entities


def _variant(entity: TrueEntity, taken: set[str], rng: random.Random) -> tuple[str, str]:
    """(spelling, form): a variant whose key is no other entity's, else the canonical name."""
    forms = [f for f in FORM_WEIGHTS if f not in PEOPLE_ONLY or entity.kind == "person"]
    weights = [FORM_WEIGHTS[f] for f in forms]
    own = entity_key(entity.name)
    for _ in range(REDRAWS):
        form = rng.choices(forms, weights)[0]
        spelling = FORMS[form](entity.name, rng)
        if spelling is None or not spelling.strip() or spelling == entity.name:
            continue
        key = entity_key(spelling)
        if key != own and key in taken:
            continue  # it would spell another entity's name: not a variant of this one
        if form in EDITING_FORMS and key == own:
            continue
        return spelling, form
    return entity.name, "canonical"


def mention_stream(entities: list[TrueEntity], seed: int) -> list[LabelledMention]:
    """Every entity's mentions (its canonical name at least once), shuffled together."""
    rng = random.Random(seed + 1)
    taken: defaultdict[str, set[str]] = defaultdict(set)
    for entity in entities:
        taken[entity.kind].add(entity_key(entity.name))
    counts, weights = MENTIONS_PER_ENTITY
    stream: list[LabelledMention] = []
    for entity in entities:
        n = rng.choices(counts, weights)[0]
        stream.append(LabelledMention(entity.name, entity.kind, entity.id, "canonical"))
        for _ in range(n - 1):
            if rng.random() < CANONICAL_SHARE:
                spelling, form = entity.name, "canonical"
            else:
                spelling, form = _variant(entity, taken[entity.kind], rng)
            stream.append(LabelledMention(spelling, entity.kind, entity.id, form))
    rng.shuffle(stream)
    return stream
