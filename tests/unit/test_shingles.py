"""design §4.5: the character evidence a near copy shares with its original, whatever its typos.

The bands are MinHash bands, so "always found" is a probability; these tests draw thousands of
seeded texts of the shapes a user writes and typos up to the threshold, and require every one.
"""

import random
import string

import pytest

from castlegraph.resolver import shingles
from castlegraph.resolver.drawers import (
    NEAR_MIN_LENGTH,
    anchor_terms,
    band_probes,
    index_terms,
    write_terms,
)
from castlegraph.resolver.similarity import at_least, text_similarity

THRESHOLD = 0.9
CASES = 1500


def _word(rng: random.Random, shortest: int, longest: int) -> str:
    return "".join(rng.choices(string.ascii_lowercase[:20], k=rng.randint(shortest, longest)))


def _typo(word: str, rng: random.Random) -> str:
    i = rng.randrange(len(word))
    edit = rng.choice(["substitute", "drop", "double", "swap"])
    if edit == "substitute":
        return word[:i] + rng.choice(string.ascii_lowercase) + word[i + 1 :]
    if edit == "drop" and len(word) > 1:
        return word[:i] + word[i + 1 :]
    if edit == "swap" and i + 1 < len(word):
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return word[:i] + word[i] + word[i:]


def _short(rng: random.Random) -> tuple[str, str]:
    """3 to 5 words, one of them retyped (`the storage engine` / `the sotrage engine`)."""
    words = [_word(rng, 2, 9) for _ in range(rng.randint(3, 5))]
    i = rng.randrange(len(words))
    return " ".join(words), " ".join([*words[:i], _typo(words[i], rng), *words[i + 1 :]])


def _every_word(rng: random.Random) -> tuple[str, str]:
    """Long words, each with one typo: no word and no pair of words left intact."""
    words = [_word(rng, 9, 14) for _ in range(rng.randint(2, 8))]
    return " ".join(words), " ".join(_typo(word, rng) for word in words)


def _every_pair(rng: random.Random) -> tuple[str, str]:
    """10 to 60 words, every second one retyped: each adjacent pair touched."""
    words = [_word(rng, 3, 10) for _ in range(rng.randint(10, 60))]
    return " ".join(words), " ".join(
        _typo(word, rng) if i % 2 else word for i, word in enumerate(words)
    )


def _near_pairs(make: object, seed: int) -> list[tuple[str, str]]:
    assert callable(make)
    rng = random.Random(seed)
    pairs: list[tuple[str, str]] = []
    while len(pairs) < CASES:
        original, copy = make(rng)
        if min(len(original), len(copy)) < NEAR_MIN_LENGTH or original == copy:
            continue
        if at_least(text_similarity(original, copy), THRESHOLD):
            pairs.append((original, copy))
    return pairs


@pytest.mark.parametrize("make", [_short, _every_word, _every_pair], ids=lambda f: f.__name__)
def test_a_near_copy_shares_a_band_with_its_original_in_either_order(make: object) -> None:
    missed = [
        (original, copy)
        for original, copy in _near_pairs(make, seed=15)
        for stored, written in ((original, copy), (copy, original))
        if not set(band_probes("w", "r", written, THRESHOLD)) & set(index_terms("w", "r", stored))
    ]
    assert missed == []


def test_the_contract_example_has_no_word_pair_in_common_but_a_band() -> None:
    original, copy = "the storage engine", "the sotrage engine"
    assert not set(anchor_terms("w", "r", original)) & set(anchor_terms("w", "r", copy))
    assert set(band_probes("w", "r", copy, THRESHOLD)) & set(index_terms("w", "r", original))


def test_unrelated_texts_of_one_shape_rarely_share_a_band() -> None:
    """What keeps a band's postings short in a room of 100 k drawers."""
    rng = random.Random(16)
    texts = [" ".join(_word(rng, 3, 10) for _ in range(rng.randint(3, 12))) for _ in range(400)]
    stored = [set(index_terms("w", "r", text)) for text in texts]
    shared = sum(
        bool(set(band_probes("w", "r", text, THRESHOLD)) & stored[j])
        for i, text in enumerate(texts)
        for j in range(i + 1, min(i + 40, len(texts)))
    )
    assert shared <= 2


def test_bands_are_scoped_to_the_room_and_absent_below_the_near_length() -> None:
    text = "the storage engine"
    assert not set(index_terms("w", "r", text)) & set(index_terms("w", "other", text))
    assert band_probes("w", "r", "short text", THRESHOLD) == []
    assert index_terms("w", "r", "short text") == anchor_terms("w", "r", "short text")
    stored_bands = 2 * shingles.BANDS  # in its own length bucket and the next
    assert len(index_terms("w", "r", text)) == len(anchor_terms("w", "r", text)) + stored_bands


@pytest.mark.parametrize("threshold", [THRESHOLD, 0.95, 0.8, 0.6])
def test_a_write_probes_a_bucket_holding_every_length_a_near_copy_can_have(
    threshold: float,
) -> None:
    for length in range(NEAR_MIN_LENGTH, 2500):
        probed = set(shingles.probe_buckets(length, threshold))
        for other in range(int(length * threshold) - 1, int(length / threshold) + 2):
            if other >= 1 and at_least(1 - abs(length - other) / max(length, other), threshold):
                assert probed & set(shingles.stored_buckets(other)), (length, other)
    assert shingles.length_bucket(1800) == shingles.length_bucket(50_000)  # one long bucket


def test_a_write_looks_its_bands_up_in_one_bucket_at_the_default_threshold() -> None:
    """The band lookups are most of a write's work in the database: one bucket, not two."""
    assert {len(shingles.probe_buckets(n, THRESHOLD)) for n in range(NEAR_MIN_LENGTH, 3000)} == {1}
    text = "the storage engine runs on every node"
    assert len(band_probes("w", "r", text, THRESHOLD)) == shingles.BANDS


@pytest.mark.parametrize("text", ["short text", "the storage engine keeps its pages", "x" * 3000])
def test_a_writes_terms_from_one_sketch_are_those_of_each_function(text: str) -> None:
    terms = write_terms("w", "r", text, THRESHOLD)
    near = len(text) >= NEAR_MIN_LENGTH
    assert terms.anchors == (anchor_terms("w", "r", text) if near else [])
    assert terms.bands == band_probes("w", "r", text, THRESHOLD)
    assert terms.stored == index_terms("w", "r", text)


@pytest.mark.parametrize("threshold", [THRESHOLD, 0.6])
def test_a_writes_terms_at_any_threshold_are_those_of_each_function(threshold: float) -> None:
    """The bands of the probed buckets are hashed once for both lists: still the same terms."""
    rng = random.Random(18)
    for length in (12, 40, 300, 1700, 2600):
        text = " ".join(_word(rng, 2, 9) for _ in range(length))[:length]
        terms = write_terms("w", "r", text, threshold)
        assert terms.bands == band_probes("w", "r", text, threshold)
        assert terms.stored == index_terms("w", "r", text)


def _ascii_texts(rng: random.Random) -> list[str]:
    """Every shape the vectorised hash must get right: the shortest texts, runs of one
    character, the highest and lowest ASCII code points, long ones."""
    alphabet = string.ascii_letters + string.digits + string.punctuation + " \t\x00\x7f"
    texts = ["", "a", "ab", "abc", "abcd", "abcde", "\x7f" * 9, "\x00" * 7, "aaaaaaaaaaaa"]
    texts += ["".join(rng.choices(alphabet, k=rng.randint(0, 3000))) for _ in range(300)]
    texts += ["".join(rng.choices("ab ", k=rng.randint(0, 60))) for _ in range(300)]
    return texts


def test_the_vectorised_5_gram_hash_gives_the_integer_arithmetics_values() -> None:
    """An ASCII text is hashed by numpy in 64-bit pieces: every bin's least value must be the
    one Python's unbounded integers give, or stored bands would stop matching probes."""
    texts = _ascii_texts(random.Random(17))
    assert [shingles._ascii_least(f" {t} ") for t in texts] == [
        shingles._least(f" {t} ") for t in texts
    ]
