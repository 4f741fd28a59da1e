"""The entity-index caches stay within their byte budgets whatever the length of the keys.

Measured with tracemalloc, not with the cache's own accounting: 200-character keys made the
entry-bounded caches hold 1.8 GB (spelling keys) and 390 MB (two-edit neighbourhoods).
"""

import random
import string
import sys
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from castlegraph.resolver import entity_search_keys
from castlegraph.resolver.bounded_cache import ByteLRU, BytesBoundedMap, size_of

SLACK = 1.15
"""What tracemalloc sees beyond the counted bytes: the dict and the entries' tuples."""


MEMBERS = st.one_of(st.text(max_size=30), st.integers(), st.binary(max_size=8))


@given(st.lists(MEMBERS, max_size=20), st.sampled_from([frozenset, tuple, list]))
def test_a_collection_weighs_what_its_members_weigh_one_by_one(
    members: list[object], collection: Callable[[list[object]], object]
) -> None:
    """ASCII strings are weighed from their joined length; anything else one by one: the two
    ways give the same bytes."""
    value = collection(members)
    assert size_of(value) == sys.getsizeof(value) + sum(map(sys.getsizeof, value))


def test_a_string_weighs_what_sys_getsizeof_says() -> None:
    assert size_of("café") == sys.getsizeof("café")


def _keys(count: int, length: int) -> list[str]:
    rng = random.Random(length)
    return ["".join(rng.choices(string.ascii_lowercase, k=length)) for _ in range(count)]


def _retained(function: Callable[[str], Any], keys: list[str]) -> int:
    tracemalloc.start()
    try:
        for key in keys:
            function(key)
        return tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


@pytest.fixture
def cleared() -> Iterator[None]:
    caches = (entity_search_keys.spelling_keys, entity_search_keys._review_probes)
    for cache in caches:
        cache.cache_clear()  # type: ignore[attr-defined]
    yield
    for cache in caches:
        cache.cache_clear()  # type: ignore[attr-defined]


@pytest.mark.usefixtures("cleared")
def test_spelling_keys_of_long_names_stay_within_the_budget() -> None:
    retained = _retained(entity_search_keys.spelling_keys, _keys(1_000, 200))  # 55 MB unbounded
    assert retained <= entity_search_keys.CACHE_BYTES * SLACK


@pytest.mark.usefixtures("cleared")
def test_review_probes_stay_within_the_budget() -> None:
    retained = _retained(entity_search_keys._review_probes, _keys(400, 40))  # 38 MB unbounded
    assert retained <= entity_search_keys.REVIEW_CACHE_BYTES * SLACK


def test_the_least_recently_used_entry_leaves_first() -> None:
    calls: list[str] = []

    def upper(key: str) -> str:
        calls.append(key)
        return key.upper()

    cache = ByteLRU(upper, max_bytes=3 * 2 * (49 + 100))  # three pairs of 100-char strings
    a, b, c, d = ("a" * 100, "b" * 100, "c" * 100, "d" * 100)
    for key in (a, b, c, a, d, a, b):  # d evicts b (a was used again), then b evicts c
        assert cache(key) == key.upper()
    assert calls == [a, b, c, d, b]
    info = cache.cache_info()
    assert (info.hits, info.misses, info.entries) == (2, 5, 3)
    assert info.bytes <= info.max_bytes


def test_a_value_larger_than_the_budget_is_returned_not_kept() -> None:
    cache = ByteLRU(lambda key: key * 10_000, max_bytes=10_000)
    assert cache("ab") == "ab" * 10_000
    assert cache.cache_info().entries == 0


def test_put_if_room_keeps_only_what_fits_and_evicts_nothing() -> None:
    kept: BytesBoundedMap[str, int] = BytesBoundedMap(max_bytes=250)
    assert kept.put_if_room("a", 1, 100) and kept.put_if_room("b", 2, 100)
    assert not kept.put_if_room("c", 3, 100)  # 300 > 250: c is refused, a and b stay
    assert kept.put_if_room("a", 9, 100)  # kept already, with its first value
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (1, 2, None)
    assert kept.put_if_room("d", 4, 50)
    assert kept.cache_info().bytes == 250


def test_get_many_answers_as_get_does_one_key_after_another() -> None:
    """A batch's lookup of many keys at once: the values in order, None for a key not kept,
    the same hits and misses, and each key found made the most recently used."""
    one_by_one: BytesBoundedMap[str, int] = BytesBoundedMap(max_bytes=40)
    at_once: BytesBoundedMap[str, int] = BytesBoundedMap(max_bytes=40)
    for kept in (one_by_one, at_once):
        for number, key in enumerate("abcd"):
            kept.put(key, number, 10)
    keys = ["c", "x", "a", "c"]
    assert at_once.get_many(keys) == [one_by_one.get(key) for key in keys] == [2, None, 0, 2]
    assert at_once.cache_info() == one_by_one.cache_info()
    for kept in (one_by_one, at_once):
        kept.put("e", 4, 10)  # the least recently used, b, leaves
        kept.put("f", 5, 10)  # then d
    assert at_once.get_many(list("abcdef")) == [0, None, 2, None, 4, 5]
