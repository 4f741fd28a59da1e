"""`graph.backends.falkordb_params` writes exactly the header FalkorDB's client writes, only
faster."""

from typing import Any

import pytest
from falkordb.helpers import stringify_param_value
from hypothesis import given, settings
from hypothesis import strategies as st

from castlegraph.graph.backends.falkordb_params import encode, params_header

TEXT = st.text(st.sampled_from('ab é"\\`\x1f\x1e\x1d\x1c\x00,[]{}:'), max_size=8)
"""Strings with every character the encoder treats specially: quotes, backslashes and each
separator it may join a list with."""
SCALARS = st.one_of(
    TEXT, st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1), st.floats(allow_nan=False)
)
KEYS = st.text(st.sampled_from("abc_1"), min_size=1, max_size=6)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.lists(TEXT, max_size=12),
        st.dictionaries(KEYS, inner, max_size=5),
    ),
    max_leaves=40,
)
PROPERTIES = settings(max_examples=1000, deadline=None)


@PROPERTIES
@given(VALUES)
def test_every_value_is_written_as_the_client_writes_it(value: Any) -> None:
    assert encode(value) == stringify_param_value(value)


@PROPERTIES
@given(st.lists(TEXT, max_size=30))
def test_a_list_of_strings_holding_every_separator_is_still_exact(items: list[str]) -> None:
    assert encode(items) == stringify_param_value(items)
    assert encode(tuple(items)) == stringify_param_value(tuple(items))


def test_the_header_is_the_clients() -> None:
    params = {
        "ids": ["a", 'b"c', "d\\e", ""],
        "rows": [{"drawer": "x", "props": {"name": "Ada", "n": 1, "ok": True, "v": None}}],
        "bump": 1,
        "empty": [],
    }
    client = "CYPHER " + "".join(f"`{k}`={stringify_param_value(v)} " for k, v in params.items())
    assert params_header(params) == client
    assert params_header({}) == "CYPHER "


@pytest.mark.parametrize("bad", [{"": 1}, {"a`b": 1}])
def test_a_map_key_the_client_refuses_is_refused_the_same_way(bad: dict[str, int]) -> None:
    for function in (encode, stringify_param_value):
        with pytest.raises(ValueError, match="Cypher map key"):
            function(bad)
