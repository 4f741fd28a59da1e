"""Planted near copies of the shapes that hide from word-pair terms (design §4.5).

Each kind pairs an original with a copy the verdicts must link (similarity ≥ 0.9, both of at
least 12 normalised characters): the drawer benchmark writes the originals into a full room and
then the copies, and counts a copy as recalled when its `similar` names its original.
"""

import random
from collections.abc import Callable

from bench.corpus import Corpus, _one_typo
from castlegraph.resolver.similarity import at_least, text_similarity
from castlegraph.resolver.text import normalize_text

THRESHOLD = 0.9
COMMON_WORDS = 500
"""Short texts drawn from the room's commonest words: the hardest to tell apart."""
LONG_WORD = 9
"""Words at least this long: one typo in each still leaves the text 90 % alike."""


def _short(corpus: Corpus, rng: random.Random) -> tuple[str, str]:
    """3 to 5 words with one typo (`the storage engine` / `the sotrage engine`)."""
    text = " ".join(rng.choices(corpus.words[:COMMON_WORDS], k=rng.randint(3, 5)))
    return text, _one_typo(text, rng)


def _every_word(corpus: Corpus, rng: random.Random) -> tuple[str, str]:
    """Long words, one typo in each: no word and no word pair survives."""
    long_words = [word for word in corpus.words if len(word) >= LONG_WORD]
    words = rng.choices(long_words, k=rng.randint(3, 8))
    return " ".join(words), " ".join(_one_typo(word, rng) for word in words)


def _every_pair(corpus: Corpus, rng: random.Random) -> tuple[str, str]:
    """A note with every second word retyped: each adjacent pair of words is touched."""
    words = corpus.text(rng).split(" ")
    copy = [
        _one_typo(word, rng) if i % 2 and any(ch.isalpha() for ch in word) else word
        for i, word in enumerate(words)
    ]
    return " ".join(words), " ".join(copy)


def _few_typos(corpus: Corpus, rng: random.Random) -> tuple[str, str]:
    """The usual slip: one or two typos in a note of 10 to 60 words."""
    text = corpus.text(rng)
    return text, corpus.typo(text, rng)


def _long(corpus: Corpus, rng: random.Random) -> tuple[str, str]:
    """Over 2,000 characters (trigram-scored), a few typos."""
    text = copy = " ".join(corpus.text(rng) for _ in range(12))
    for _ in range(rng.randint(1, 5)):
        copy = corpus.typo(copy, rng)
    return text, copy


KINDS: dict[str, Callable[[Corpus, random.Random], tuple[str, str]]] = {
    "few_typos": _few_typos,
    "every_pair": _every_pair,
    "every_word": _every_word,
    "short_3_5_words": _short,
    "long_over_2000": _long,
}


def planted(corpus: Corpus, rng: random.Random, per_kind: int) -> list[tuple[str, str, str]]:
    """(kind, original, copy) triples, `per_kind` of each, every copy near its original."""
    found: list[tuple[str, str, str]] = []
    for kind, make in KINDS.items():
        count = 0
        while count < per_kind:
            original, copy = make(corpus, rng)
            a, b = normalize_text(original), normalize_text(copy)
            if a == b or min(len(a), len(b)) < 12 or not at_least(text_similarity(a, b), THRESHOLD):
                continue
            found.append((kind, original, copy))
            count += 1
    return found
