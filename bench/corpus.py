"""Seeded, made-up text that behaves like notes people write, for the drawer benchmarks.

Real dedup cost depends on the shape of the text: drawers of one room share common words (so a
shared-words candidate search has real work to do) yet are mostly distinct, a few are retyped
with a slip of the finger, and a few are pasted twice. Words are built from syllables and drawn
with Zipf-like frequencies, so the same seed gives the same texts on every machine, with no
corpus to download and no meaning to leak into the numbers.
"""

import bisect
import itertools
import random
import string
from dataclasses import dataclass
from enum import StrEnum

ONSETS = [
    "",
    "b",
    "c",
    "d",
    "f",
    "g",
    "h",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "w",
    "z",
    "br",
    "ch",
    "st",
    "tr",
    "pl",
    "gr",
    "sh",
    "th",
    "qu",
    "sp",
]
NUCLEI = ["a", "e", "i", "o", "u", "ai", "ea", "ou", "y"]
CODAS = ["", "", "n", "r", "s", "l", "t", "ng", "ck"]
SYLLABLES = 300
VOCABULARY = 6000
ZIPF_EXPONENT = 1.05
"""Slightly above 1, like word frequencies in English: a few very common words, a long tail."""

MIN_WORDS, MAX_WORDS = 10, 60
NUMBER_SHARE = 0.04
"""Share of words that are numbers (ports, versions, counts), as in technical notes."""


class Kind(StrEnum):
    """How a text relates to the drawers already written: what the service should answer."""

    NEW = "new"
    NEAR = "near"  # one or two typos of an earlier text: stored (201) and linked
    EXACT = "exact"  # the same text again: not stored (200)


@dataclass(frozen=True, slots=True)
class Text:
    kind: Kind
    content: str


class Corpus:
    """A vocabulary fixed by `seed`; texts are drawn with a caller's `random.Random`."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        combos = ["".join(p) for p in itertools.product(ONSETS, NUCLEI, CODAS)]
        syllables = rng.sample(sorted(set(combos)), SYLLABLES)
        words: dict[str, None] = {}  # ordered set: rank = insertion order
        while len(words) < VOCABULARY:
            count = rng.choices([1, 2, 3, 4], weights=[3, 5, 3, 1])[0]
            words["".join(rng.choices(syllables, k=count))] = None
        self.words = list(words)
        weights = [1.0 / (rank + 2.7) ** ZIPF_EXPONENT for rank in range(VOCABULARY)]
        self._cum_weights = list(itertools.accumulate(weights))

    def text(self, rng: random.Random) -> str:
        """10 to 60 words in sentences, with capitals, commas and a few numbers."""
        words = rng.choices(
            self.words, cum_weights=self._cum_weights, k=rng.randint(MIN_WORDS, MAX_WORDS)
        )
        words = [str(rng.randint(2, 65535)) if rng.random() < NUMBER_SHARE else w for w in words]
        sentences, start = [], 0
        while start < len(words):
            end = min(len(words), start + rng.randint(4, 14))
            sentence = " ".join(words[start:end])
            if end - start > 6 and rng.random() < 0.3:
                cut = sentence.find(" ", len(sentence) // 2)
                sentence = sentence[:cut] + "," + sentence[cut:] if cut > 0 else sentence
            sentences.append(sentence[0].upper() + sentence[1:] + rng.choice(".....?!"))
            start = end
        return " ".join(sentences)

    @staticmethod
    def typo(text: str, rng: random.Random) -> str:
        """One or two slips of the finger on letters: substitute, drop, double or swap."""
        for _ in range(rng.choice([1, 1, 2])):
            text = _one_typo(text, rng)
        return text

    def room(self, size: int, rng: random.Random, near: float, exact: float) -> list[Text]:
        """`size` texts in write order; copies only ever copy an earlier text."""
        texts: list[Text] = [Text(Kind.NEW, self.text(rng))]
        while len(texts) < size:
            texts.append(self.follow(texts, rng, near, exact))
        return texts

    def follow(self, earlier: list[Text], rng: random.Random, near: float, exact: float) -> Text:
        """A text to write after `earlier`: a near copy, an exact copy, or new."""
        roll = rng.random()
        if roll < exact:
            return Text(Kind.EXACT, rng.choice(earlier).content)
        if roll < exact + near:
            return Text(Kind.NEAR, self.typo(rng.choice(earlier).content, rng))
        return Text(Kind.NEW, self.text(rng))


def _one_typo(text: str, rng: random.Random) -> str:
    """An edit that changes the normalised text (case or punctuation slips would not)."""
    letters = [i for i, ch in enumerate(text) if ch.isalpha()]
    while True:
        i = rng.choice(letters)
        edit = rng.choice(["substitute", "drop", "double", "swap"])
        if edit == "substitute":
            new = text[:i] + rng.choice(string.ascii_lowercase) + text[i + 1 :]
        elif edit == "drop":
            new = text[:i] + text[i + 1 :]
        elif edit == "double":
            new = text[:i] + text[i] + text[i:]
        else:
            j = bisect.bisect_right(letters, i)
            if j == len(letters) or letters[j] != i + 1:
                continue  # the next character is not a letter: swapping would touch a separator
            new = text[:i] + text[i + 1] + text[i] + text[i + 2 :]
        if new.lower() != text.lower():
            return new
