"""The general word list of the word guard (`api.service.lexicon.Lexicon`), as installed."""

import wordfreq

from api.service.lexicon import LANGUAGES, MIN_ZIPF, WORDLIST, Lexicon

LEXICON = Lexicon()


def test_it_knows_every_word_of_the_lists_at_the_floor_and_no_other() -> None:
    """The hashed list holds what a set of wordfreq's words at Zipf ≥ 3.0 held."""
    floor = 10 ** (MIN_ZIPF - 9)
    words: set[str] = set()
    below: set[str] = set()
    for language in LANGUAGES:
        for word, frequency in wordfreq.get_frequency_dict(language, WORDLIST).items():
            (words if frequency >= floor else below).add(word)
    assert len(LEXICON.words) == len(words) > 100_000
    assert all(LEXICON(word) for word in words)
    assert not any(LEXICON(word) for word in below - words)


def test_names_people_write_are_known_misspellings_are_not() -> None:
    assert all(LEXICON(word) for word in ("maria", "mario", "jon", "marian", "lopez"))
    assert not any(LEXICON(word) for word in ("kubernets", "surealdb", "maeia"))
