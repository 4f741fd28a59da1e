"""The word guard's lexicon: words and names common enough to be two names, not a typo.

`Lexicon` holds every word of wordfreq's `small` lists of seven languages at Zipf ≥ 3.0;
`PersonNames` adds given names and surnames for the kinds that hold people (design §5.3). Both
are sorted 64-bit hashes (`HashedWords`), built once per process, on a background thread, by a
child process (`api.service.word_lists`), or here should no child manage it.
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
    """The general words (lower case).

    Zipf 3.0 (about once per million words) covers the names people write (maria, mario,
    lopez) while misspellings score 0 (kubernets, maeia). The `large` lists at 2.5 would, on
    every kind, block typos between rare words of any text, and stricter thresholds lose
    precision (`bench quality`): the larger lists serve `PersonNames` only."""

    def __init__(self, languages: tuple[str, ...] = LANGUAGES, min_zipf: float = MIN_ZIPF) -> None:
        super().__init__(partial(_load_words, tuple(languages), min_zipf))


NAME_LISTS = ("male_names", "female_names", "surnames")
NAME_LANGUAGES = ("ca", "cs", "de", "en", "es", "fi", "fr", "it", "nb", "nl", "pl", "pt", "sv")
"""The Latin-script languages wordfreq ships a `large` list for."""
NAME_MIN_ZIPF = 2.5
NAME_WORDLIST = "large"
GIVEN_NAMES_MIN_FREQUENCY = 1
"""Every given name `nam_dict.txt` lists for some country, rare ones included: the list is
curated by hand, so a rare entry is a real name (`jayde`, `kylee`, `alysha`), exactly what the
guard must know; 2 would drop 22,000 of its 45,000 names, these among them."""


BUILD_TIMEOUT_S = 300.0
"""A child's build takes 1-5 s; one that takes this long is stuck."""


def _built(spec: ListSpec) -> HashedWords:
    """`spec`'s hashes from a child process (`api.service.word_lists`), or built here when no
    child could (it could not start, failed or hung): the same list, at the price of the memory
    the child would have taken away with it (wordfreq's modules and the pieces of the lists it
    unpacked)."""
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
def _load_names(
    lists: tuple[str, ...], languages: tuple[str, ...], min_zipf: float, given_names: int
) -> HashedWords:
    """One build per process and configuration: every runtime of a process shares it."""
    return _built(ListSpec(lists, languages, min_zipf, NAME_WORDLIST, given_names))


@lru_cache(maxsize=4)
def _load_words(languages: tuple[str, ...], min_zipf: float) -> HashedWords:
    """One build per process and configuration, as `_load_names`."""
    return _built(ListSpec((), languages, min_zipf, WORDLIST))


class PersonNames(_LazyWords):
    """Given names and surnames (lower case), for the kinds in `dedup.person_kinds`.

    A general word list knows the commoner of two real names one edit apart and not the rarer,
    so the pair would converge as a typo. Three offline sources: the US census lists `zxcvbn`
    ships, read from its file without importing the password checker; the given names of 55
    countries and regions of Jörg Michael's `nam_dict.txt` (about 45,000, GNU FDL, read as data
    from the `gender-guesser` package without importing its GPL code), from Ireland to India
    (`siobhan`, `aoife`, `lakshmi`, `oksana`, `jayde`); and wordfreq's `large` lists of its
    Latin-script languages at Zipf ≥ 2.5, for surnames above all: names are words of their
    countries' texts (`katarina`, `sundin`, `borgström`), misspellings are not. The word lists
    also know rare common words, which costs a converged typo where both spellings are words
    (the pair still gets a review link).

    Not used: Faker's locale lists (`bench quality` draws its names from them: it would grade
    itself); `names-dataset` (built from a leaked scrape of a social network; its lists are
    pickles, which run code when loaded, and take gigabytes); WGND's and `nomquamgender`'s
    given names (scraped, no frequencies to filter by: they hold misspellings such as
    `sandta`)."""

    def __init__(
        self,
        lists: Iterable[str] = NAME_LISTS,
        languages: Iterable[str] = NAME_LANGUAGES,
        min_zipf: float = NAME_MIN_ZIPF,
        given_names_min_frequency: int = GIVEN_NAMES_MIN_FREQUENCY,
    ) -> None:
        super().__init__(
            partial(
                _load_names,
                tuple(lists),
                tuple(languages),
                min_zipf,
                given_names_min_frequency,
            )
        )
