"""The word guard's lexicon: words and names common enough to be two names, not a typo.

Built from `wordfreq` (a well-kept PyPI package that ships its frequency lists in the wheel and
works offline): every word of the `small` lists of seven languages whose Zipf frequency is at
least 3.0 (about once per million words). That covers given names and surnames people write
(maria 4.3, mario 4.2, jon 4.3, marian 3.4, lopez 3.8) while misspellings score 0
(kubernets, surealdb, maeia). The set is built once, lazily (about 0.3 s and 40 MB), and a
lookup is a set membership test. `bench quality` measures the trade-off of the threshold.
"""

import threading

LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl")
MIN_ZIPF = 3.0


class Lexicon:
    def __init__(self, languages: tuple[str, ...] = LANGUAGES, min_zipf: float = MIN_ZIPF) -> None:
        self._languages = languages
        self._min_zipf = min_zipf
        self._words: frozenset[str] | None = None
        self._lock = threading.Lock()

    def _load(self) -> frozenset[str]:
        from wordfreq import get_frequency_dict  # noqa: PLC0415  # heavy: on first use

        min_frequency = 10 ** (self._min_zipf - 9)  # Zipf = log10(frequency per billion words)
        words: set[str] = set()
        for language in self._languages:
            frequencies = get_frequency_dict(language, "small")
            words.update(word for word, freq in frequencies.items() if freq >= min_frequency)
        return frozenset(words)

    @property
    def words(self) -> frozenset[str]:
        if self._words is None:
            with self._lock:
                if self._words is None:
                    self._words = self._load()
        return self._words

    def __call__(self, word: str) -> bool:
        return word in self.words
