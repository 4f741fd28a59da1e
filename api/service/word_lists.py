"""The word guard's lists as hashes, built in a process of their own (`api.service.lexicon`).

`python -m castlegraph.api.service.word_lists PARENT_PID SPEC` builds one list (`ListSpec`, as
JSON), writes the sorted hashes of its words to stdout, 8 bytes each, and dies with the service.
A child, because wordfreq unpacks a language's whole list to read a few buckets, and a process
that did so keeps its modules and the freed pieces for good: the child takes them with it.
"""

import hashlib
import heapq
import importlib.util
import json
import math
import sys
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from castlegraph.api.service.children import write_all
from castlegraph.graph.backends.child_watch import die_with_parent
from castlegraph.resolver.entity_keys import entity_key

HASH_BYTES = 8


def word_hash(word: str) -> int:
    """The first 8 bytes of the word's UTF-8 BLAKE2b: the same in every process, where Python's
    own string hash is seeded per process. Two words of a million sharing one is a
    one-in-ten-trillion event, and would only make one misspelling count as a word."""
    digest = hashlib.blake2b(word.encode("utf-8", "surrogatepass"), digest_size=HASH_BYTES).digest()
    return int.from_bytes(digest, "little", signed=True)


class HashedWords:
    """A fixed set of words as their sorted 64-bit hashes (`word_hash`): membership by binary
    search. Built from groups of words (one list each), sorted one group at a time and merged,
    so no set of every word's hash is ever held."""

    def __init__(self, groups: Iterable[Iterable[str]]) -> None:
        runs = [array("q", sorted({word_hash(word) for word in group})) for group in groups]
        self._hashes = array("q")
        for value in heapq.merge(*runs):
            if not self._hashes or self._hashes[-1] != value:
                self._hashes.append(value)

    @classmethod
    def from_bytes(cls, data: bytes) -> "HashedWords":
        """What `to_bytes` wrote (in a process of the same byte order: a parent and its child)."""
        words = cls(())
        words._hashes.frombytes(data)
        return words

    def to_bytes(self) -> bytes:
        return self._hashes.tobytes()

    def __len__(self) -> int:
        return len(self._hashes)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        value = word_hash(word)
        i = bisect_left(self._hashes, value)
        return i < len(self._hashes) and self._hashes[i] == value


@dataclass(frozen=True, slots=True)
class ListSpec:
    """One list: the census lists named, the given names of many countries at
    `given_names_min_frequency` or above (0: none), then per language the words of wordfreq's
    `wordlist` at `min_zipf` or above."""

    census: tuple[str, ...]
    languages: tuple[str, ...]
    min_zipf: float
    wordlist: str
    given_names_min_frequency: int = 0

    def to_json(self) -> str:
        return json.dumps(
            [
                self.census,
                self.languages,
                self.min_zipf,
                self.wordlist,
                self.given_names_min_frequency,
            ]
        )

    @classmethod
    def from_json(cls, text: str) -> "ListSpec":
        census, languages, min_zipf, wordlist, given = json.loads(text)
        return cls(tuple(census), tuple(languages), float(min_zipf), str(wordlist), int(given))

    def build(self) -> HashedWords:
        """In this process (the child's work, or the service's when no child could do it)."""
        census = [_census_names(self.census)] if self.census else []
        given = self.given_names_min_frequency
        world = [given_names(given)] if given else []
        return HashedWords(
            chain(census, world, _frequent_words(self.languages, self.min_zipf, self.wordlist))
        )


def _census_names(lists: tuple[str, ...]) -> Iterator[str]:
    """The census lists of zxcvbn's `frequency_lists` module, run on its own: importing it as
    `zxcvbn.frequency_lists` would import the password checker's whole package."""
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


NAM_DICT = ("gender_guesser", "data/nam_dict.txt")
"""Jörg Michael's dictionary of first names (GNU FDL 1.2), as the `gender-guesser` package
ships it: about 45,000 given names with their frequency in each of 55 countries and regions,
curated by hand, so even a rare entry is a name and not a misspelling."""
NAM_DICT_NAME = slice(3, 29)
NAM_DICT_SORTING = 29
NAM_DICT_FREQUENCIES = slice(30, None)


def given_names(min_frequency: int) -> Iterator[str]:
    """The words (as in entity keys) of every given name that some country lists at
    `min_frequency` or above (1 = rare to 13 = extremely common). The file is read as data:
    the package's detector (GPL code) is never imported. Lines marked `+` in the sorting column
    repeat a name with its umlauts expanded (`Käte` as `Kaete`), a spelling nobody writes:
    left out; a `+` inside a name stands for a hyphen, a space or nothing (`Jun+Wei`): the
    words and the joined name."""
    package = importlib.util.find_spec(NAM_DICT[0])  # found, not imported
    origin = package.origin if package else None
    if origin is None:
        raise ModuleNotFoundError("gender-guesser, which ships nam_dict.txt, is not installed")
    source = Path(origin).parent / NAM_DICT[1]
    with source.open(encoding="utf-8") as lines:
        for line in lines:
            if line[:1] in ("#", "=") or line[NAM_DICT_SORTING : NAM_DICT_SORTING + 1] == "+":
                continue
            frequencies = line[NAM_DICT_FREQUENCIES].split("$", 1)[0].replace(" ", "")
            if int(max(frequencies, default="0"), 16) < min_frequency:  # "1" < "9" < "A" < "D"
                continue
            name = line[NAM_DICT_NAME].strip()
            yield from entity_key(name.replace("+", " ")).split(" ")
            if "+" in name:
                yield entity_key(name.replace("+", ""))


def _frequent_words(
    languages: tuple[str, ...], min_zipf: float, wordlist: str
) -> Iterator[list[str]]:
    """Per language, the words at `min_zipf` or above, read from wordfreq's buckets (one per
    centibel of frequency, most frequent first) without building its dictionary of every word."""
    import wordfreq  # noqa: PLC0415  # heavy: only where a list is built

    last_bucket = math.floor(100 * (9 - min_zipf) + 1e-9)  # bucket i holds frequency 10^(-i/100)
    for language in languages:
        buckets = wordfreq.get_frequency_list(language, wordlist)[: last_bucket + 1]
        wordfreq.get_frequency_list.cache_clear()  # one language's list in memory at a time
        yield [word for bucket in buckets for word in bucket]


def main(argv: list[str]) -> int:
    if len(argv) != 3 or not argv[1].isdigit():
        print(f"usage: python -m {__spec__.name} PARENT_PID SPEC", file=sys.stderr)
        return 2
    die_with_parent(int(argv[1]))
    write_all(sys.stdout.buffer, ListSpec.from_json(argv[2]).build().to_bytes())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
