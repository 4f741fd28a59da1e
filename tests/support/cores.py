"""The cores a test can run on (`resolver.core`): which are here, a way back to the one the
session chose after a test chose another, and the keys the differential tests of entity keys
feed both cores (`entity_keys`, `KeyCoreBound`)."""

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import strategies as st

from castlegraph.resolver import core, entity_search_keys
from castlegraph.resolver.bounded_cache import ByteLRU

NATIVE_BUILT = core.native_module() is not None
needs_native = pytest.mark.skipif(
    not NATIVE_BUILT, reason="the compiled core is not built here (no Rust toolchain at install)"
)


@contextmanager
def chosen_back() -> Iterator[None]:
    """Whatever a test chooses, the session's core runs again after it."""
    before = core.running().name
    try:
        yield
    finally:
        core.choose(before)


@contextmanager
def native_missing(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The compiled core as on a machine where it was never built: its import fails."""
    with monkeypatch.context() as patch:
        patch.setitem(sys.modules, core.NATIVE_MODULE, None)  # None: `import` raises
        yield


ADVERSARIAL = [*"aeéèëoöøñç0123456789 ", "ß", "東", "京", "🙂", "👍", "🏽", "\u0301", "ﬁ", "İ"]
"""Accents and a combining mark, digits, CJK, emoji and a skin tone, a ligature, a dotted I."""
characters = st.one_of(st.sampled_from(ADVERSARIAL), st.characters(exclude_categories=["Cs"]))


def entity_keys(max_size: int, max_long: int) -> st.SearchStrategy[str]:
    """Entity keys, random and adversarial: any text up to `max_size`, words and digits with
    repeats, several words, long ones (38 to `max_long`) and the empty key."""
    return st.one_of(
        st.text(characters, max_size=max_size),
        st.text(st.sampled_from("abcd 12"), min_size=3, max_size=18),  # words, digits, repeats
        st.lists(st.text("abcdéxyz", min_size=1, max_size=6), min_size=2, max_size=4).map(" ".join),
        st.text(st.sampled_from("ab"), min_size=38, max_size=max_long),
        st.just(""),
    )


class KeyCoreBound:
    """The core `choice` bound, the key caches empty, for one block; the choice before after."""

    def __init__(self, choice: core.Choice) -> None:
        self._choice = choice
        self._before = core.running().name

    def __enter__(self) -> None:
        core.choose(self._choice)
        _clear_key_caches()

    def __exit__(self, *_: object) -> None:
        core.choose(self._before)
        _clear_key_caches()


def _clear_key_caches() -> None:
    for cache in _key_caches():
        cache.cache_clear()


def _key_caches() -> Iterator[ByteLRU[str, frozenset[str]]]:
    yield entity_search_keys._one_edit_probes
    yield entity_search_keys._review_probes
    yield entity_search_keys.spelling_keys
