"""Spellings people really produce for one name: the variant forms of `bench quality`.

Each maker takes the canonical name and a seeded `random.Random` and returns a different
spelling, or None when the form does not apply to that name (no accents to drop, one word to
take an initial from). They never touch a digit: a changed digit is another thing (a version,
a model number), which the generator plants as a separate true entity, not as a variant.
"""

import random
import unicodedata
from collections.abc import Callable

Maker = Callable[[str, random.Random], str | None]

_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_NEIGHBOURS: dict[str, str] = {}
for _r, _row in enumerate(_ROWS):
    for _c, _ch in enumerate(_row):
        near = [_row[i] for i in (_c - 1, _c + 1) if 0 <= i < len(_row)]
        near += [_ROWS[r][_c] for r in (_r - 1, _r + 1) if 0 <= r < 3 and _c < len(_ROWS[r])]
        _NEIGHBOURS[_ch] = "".join(near)


def _letters(name: str) -> list[int]:
    return [i for i, ch in enumerate(name) if ch.isalpha()]


def _neighbour(ch: str, rng: random.Random, name: str = "") -> str:
    """A key next to `ch` on a QWERTY keyboard (same case); for other letters another letter of
    the same name (a Devanagari name mistyped stays Devanagari), else any a-z letter."""
    others = sorted({c for c in name if c.isalpha() and not c.isascii() and c != ch})
    pool = _NEIGHBOURS.get(ch.lower()) or "".join(others) or "abcdefghijklmnopqrstuvwxyz"
    pick = rng.choice(pool)
    return pick.upper() if ch.isupper() else pick


def case(name: str, rng: random.Random) -> str | None:
    options = [s for s in (name.upper(), name.lower(), name.title()) if s != name]
    return rng.choice(options) if options else None


def punctuation(name: str, rng: random.Random) -> str | None:
    """Hyphens become spaces or vanish, dots and apostrophes drop, or a stray full stop or
    comma is added at the end (what sentence-level extraction leaves behind)."""
    options: list[str] = []
    if "-" in name:
        options += [name.replace("-", " "), name.replace("-", "")]
    for mark in (".", "'", "’", ","):
        if mark in name:
            options.append(name.replace(mark, ""))
    if not options:
        options = [name + ".", name + ","]
    options = [s for s in options if s.strip() and s != name]
    return rng.choice(options) if options else None


def spacing(name: str, rng: random.Random) -> str | None:
    """A doubled space, a space lost between two words, or a CamelCase word split in two."""
    gaps = [i for i, ch in enumerate(name) if ch == " "]
    camel = [i for i in range(1, len(name)) if name[i].isupper() and name[i - 1].islower()]
    options: list[str] = []
    if gaps:
        i = rng.choice(gaps)
        options += [name[:i] + "  " + name[i + 1 :], name[:i] + name[i + 1 :]]
    if camel:
        i = rng.choice(camel)
        options.append(name[:i] + " " + name[i:])
    return rng.choice(options) if options else None


def typo(name: str, rng: random.Random) -> str | None:
    """One letter substituted by a keyboard neighbour, doubled, or lost."""
    letters = _letters(name)
    if len(letters) < 2:
        return None
    i = rng.choice(letters)
    operation = rng.choice(("substitute", "insert", "delete"))
    if operation == "substitute":
        return name[:i] + _neighbour(name[i], rng, name) + name[i + 1 :]
    if operation == "insert":
        return name[: i + 1] + name[i] + name[i + 1 :]
    return name[:i] + name[i + 1 :]


def transposition(name: str, rng: random.Random) -> str | None:
    """Two adjacent, different letters swapped."""
    spots = [
        i
        for i in range(len(name) - 1)
        if name[i].isalpha() and name[i + 1].isalpha() and name[i].lower() != name[i + 1].lower()
    ]
    if not spots:
        return None
    i = rng.choice(spots)
    return name[:i] + name[i + 1] + name[i] + name[i + 2 :]


def two_substitutions(name: str, rng: random.Random) -> str | None:
    """Two letters, at two places, each replaced by a keyboard neighbour (`Katarina` ->
    `Katerino`): two edits that deletion keys alone never met."""
    letters = _letters(name)
    if len(letters) < 8:
        return None
    first, second = sorted(rng.sample(letters, 2))
    out = list(name)
    for i in (first, second):
        out[i] = _neighbour(name[i], rng, name)
    return "".join(out)


def two_deletions(name: str, rng: random.Random) -> str | None:
    """Two letters lost (`PostgreSQL` -> `Postgrel`). In a shuffled stream this spelling comes
    before the full name about half the time: the stored key is then the longer one."""
    letters = _letters(name)
    if len(letters) < 8:
        return None
    first, second = sorted(rng.sample(letters, 2))
    return name[:first] + name[first + 1 : second] + name[second + 1 :]


def _replace_one(name: str, rng: random.Random, swaps: tuple[tuple[str, str], ...]) -> str | None:
    """One occurrence of one of `swaps`' patterns (lower case, matched in any case) replaced."""
    lower = name.lower()
    spots = [
        (i, old, new) for old, new in swaps for i in range(len(lower)) if lower.startswith(old, i)
    ]
    if not spots:
        return None
    i, old, new = rng.choice(spots)
    matched = name[i : i + len(old)]
    written = new
    if len(matched) > 1 and matched.isupper():
        written = new.upper()  # `SCHMIDT` -> `SHMIDT`
    elif matched[:1].isupper():
        written = new.capitalize()  # `Harm` -> `Liarm`
    return name[:i] + written + name[i + len(old) :]


OCR_CONFUSIONS = (
    ("rn", "m"), ("m", "rn"), ("cl", "d"), ("d", "cl"), ("vv", "w"), ("w", "vv"), ("li", "h"),
    ("h", "li"), ("ri", "n"), ("in", "m"), ("l", "i"), ("i", "l"), ("e", "c"), ("c", "e"),
    ("u", "v"), ("v", "u"), ("n", "h"), ("b", "h"), ("o", "c"), ("é", "e"), ("ł", "l"),
)  # fmt: skip
"""What a scan read as text gets wrong: letters that look alike, never digits (`1`, `0`)."""


def ocr(name: str, rng: random.Random) -> str | None:
    """A scanned record: one look-alike confusion (`Harrison` -> `Hamson`, `Clara` -> `Dara`,
    `William` -> `Wiliiam`)."""
    return _replace_one(name, rng, OCR_CONFUSIONS)


PHONETIC_SPELLINGS = (
    ("ph", "f"), ("f", "ph"), ("ck", "k"), ("k", "c"), ("c", "k"), ("y", "i"), ("i", "y"),
    ("z", "s"), ("s", "z"), ("w", "v"), ("v", "w"), ("sch", "sh"), ("sh", "sch"), ("th", "t"),
    ("ee", "i"), ("ie", "y"), ("ou", "u"), ("oo", "u"), ("ei", "ai"), ("ai", "ei"),
    ("ks", "x"), ("x", "ks"), ("j", "y"), ("dt", "t"), ("gh", "g"), ("kh", "k"), ("aa", "a"),
    ("tt", "t"), ("ll", "l"), ("nn", "n"), ("ss", "s"), ("mm", "m"), ("qu", "kw"), ("v", "b"),
)  # fmt: skip
"""How a name heard (on the phone, at a desk) is written down by someone who never saw it."""


def phonetic(name: str, rng: random.Random) -> str | None:
    """A spelling by ear: `Stephen` -> `Steven`-like swaps (`ph`/`f`, `c`/`k`, `y`/`i`,
    `sch`/`sh`, a doubled letter written once)."""
    return _replace_one(name, rng, PHONETIC_SPELLINGS)


def dropped_letter(name: str, rng: random.Random) -> str | None:
    """A letter lost where it is easiest to lose: a vowel inside a word, or one of a doubled
    pair (`Kowalczyk` -> `Kowlczyk`, `Anna` -> `Ana`)."""
    spots = [
        i
        for i in range(1, len(name))
        if name[i].isalpha()
        and name[i - 1].isalpha()
        and (name[i].lower() in "aeiouy" or name[i].lower() == name[i - 1].lower())
    ]
    if not spots:
        return None
    i = rng.choice(spots)
    return name[:i] + name[i + 1 :]


def word_order(name: str, rng: random.Random) -> str | None:
    """The words in another order, as lists write people (`Lovelace, Ada`, `Lovelace Ada`)."""
    words = name.split(" ")
    if len(words) < 2:
        return None
    if len(words) == 2:
        return rng.choice((f"{words[1]}, {words[0]}", f"{words[1]} {words[0]}"))
    shuffled = words[:]
    while shuffled == words:
        rng.shuffle(shuffled)
    return " ".join(shuffled)


def accents(name: str, rng: random.Random) -> str | None:
    """Every combining accent dropped, as typed on a keyboard without them."""
    del rng
    stripped = "".join(
        ch for ch in unicodedata.normalize("NFD", name) if unicodedata.category(ch) != "Mn"
    )
    stripped = unicodedata.normalize("NFC", stripped)
    return stripped if stripped != name else None


def initials(name: str, rng: random.Random) -> str | None:
    """The given name cut to its initial: `John Smith` → `J. Smith` (or `J Smith`)."""
    words = name.split(" ")
    if len(words) < 2 or not words[0][:1].isalpha():
        return None
    dot = rng.choice((".", ".", ""))
    return " ".join([words[0][0] + dot, *words[1:]])


FORMS: dict[str, Maker] = {
    "case": case,
    "punctuation": punctuation,
    "spacing": spacing,
    "typo": typo,
    "transposition": transposition,
    "dropped_letter": dropped_letter,
    "ocr": ocr,
    "phonetic": phonetic,
    "accents": accents,
    "two_substitutions": two_substitutions,
    "two_deletions": two_deletions,
    "word_order": word_order,
    "initials": initials,
}
"""Variant forms, in report order."""

FORM_WEIGHTS: dict[str, float] = {
    "case": 0.18,
    "punctuation": 0.14,
    "spacing": 0.12,
    "typo": 0.22,
    "transposition": 0.10,
    "dropped_letter": 0.06,
    "ocr": 0.06,
    "phonetic": 0.08,
    "accents": 0.18,
    "two_substitutions": 0.05,
    "two_deletions": 0.05,
    "word_order": 0.05,
    "initials": 0.06,
}
"""Share of each form among the mentions that are not the canonical spelling (persons only
take initials; a form that does not apply to a name is re-drawn)."""
