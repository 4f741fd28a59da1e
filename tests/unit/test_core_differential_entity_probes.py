"""The compiled core's probe and index keys of an entity key against their pure-Python twins
(`resolver.entity_probes`), on random and adversarial keys: accents and combining marks,
digits (dense keys), CJK, emoji, several words (word order), keys around every length
threshold, long and empty ones. Then the same through `resolver.entity_search_keys` with either
core bound, where the accent-folded form joins them. Skipped where the core is not built.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castlegraph.resolver import core as chosen_core
from castlegraph.resolver import entity_probes, entity_search_keys
from castlegraph.resolver.entity_segments import is_dense
from tests.support.cores import KeyCoreBound, entity_keys

native = chosen_core.native_module()
pytestmark = pytest.mark.skipif(native is None, reason="the compiled core is not built")

keys = entity_keys(max_size=50, max_long=120)


@settings(max_examples=600, deadline=None)
@given(keys)
def test_one_edit_keys(key: str) -> None:
    assert native is not None
    assert native.one_edit_keys(key) == entity_probes.one_edit_keys(key)


@settings(max_examples=600, deadline=None)
@given(keys)
def test_review_keys(key: str) -> None:
    assert native is not None
    assert native.review_keys(key) == entity_probes.review_keys(key)


@settings(max_examples=600, deadline=None)
@given(keys, st.booleans())
def test_stored_keys(key: str, dense: bool) -> None:
    assert native is not None
    assert native.stored_keys(key, dense) == entity_probes.stored_keys(key, dense)


@pytest.mark.parametrize("length", range(2, 44))
def test_every_length_threshold(length: int) -> None:
    """Around 4 (fuzzy keys), 6 (typo, word order), 8 (partitions, depth 2) and 40 (no depth 2)."""
    assert native is not None
    for key in (("abcdefgh" * 6)[:length], ("ab cd 9e" * 6)[:length]):
        dense = is_dense(key)
        assert native.one_edit_keys(key) == entity_probes.one_edit_keys(key)
        assert native.review_keys(key) == entity_probes.review_keys(key)
        assert native.stored_keys(key, dense) == entity_probes.stored_keys(key, dense)


def test_a_key_with_a_lone_surrogate_is_left_to_the_twin() -> None:
    """Python holds such a key (a JSON escape can make one); UTF-8 cannot: the core answers
    None, and the bound function the twin's keys."""
    assert native is not None
    key = "abc\ud800defgh"
    assert native.review_keys(key) is None
    with KeyCoreBound("native"):
        assert chosen_core.review_keys(key) == entity_probes.review_keys(key)
        assert chosen_core.stored_keys(key, True) == entity_probes.stored_keys(key, True)


@settings(max_examples=300, deadline=None)
@given(keys)
def test_the_search_keys_are_the_same_under_either_core(key: str) -> None:
    """What `entity_search_keys` stores and probes, accent-folded forms included."""
    answers = []
    for choice in ("python", "native"):
        with KeyCoreBound(choice):
            answers.append(
                (
                    entity_search_keys.index_keys(key),
                    entity_search_keys.probe_keys(key, two_edits=False),
                    entity_search_keys.probe_keys(key, two_edits=True),
                )
            )
    assert answers[0] == answers[1]
