"""The compiled core's FalkorDB parameter header against its pure-Python twin and the FalkorDB
client's own writer (`graph.backends.falkordb_params`), on generated parameters: strings with
every character the writers treat specially, CJK and emoji, nested lists, tuples and maps,
numbers of every size, and the values the core hands back to the client's function. Skipped
where the core is not built."""

from typing import Any

import pytest
from falkordb.helpers import stringify_param_value
from hypothesis import given, settings
from hypothesis import strategies as st

from castlegraph.graph.backends.falkordb_params import header_in_python, params_header
from castlegraph.resolver import core as chosen_core
from tests.support.cores import ADVERSARIAL, KeyCoreBound

native = chosen_core.native_module()
pytestmark = pytest.mark.skipif(native is None, reason="the compiled core is not built")

TEXT = st.text(
    st.one_of(st.sampled_from([*'ab é"\\`\x1f\x00,[]{}:', *ADVERSARIAL]), st.characters()),
    max_size=10,
)
"""Any string, lone surrogates included: quotes, backslashes, backticks and separators first."""
SCALARS = st.one_of(
    TEXT,
    st.none(),
    st.booleans(),
    st.integers(),  # beyond 64 bits too: the core hands those to the client's function
    st.floats(),
    st.binary(max_size=4),
)
MAP_KEYS = st.one_of(st.text(st.sampled_from("abc_1é"), min_size=1, max_size=6), TEXT)
"""Plain keys mostly; any text too, so empty keys, backticks and surrogates turn up."""
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.lists(TEXT, max_size=12),
        st.tuples(inner, inner),
        st.dictionaries(MAP_KEYS, inner, max_size=5),
    ),
    max_leaves=40,
)
NAMES = st.text(st.sampled_from("abcdefgh_"), min_size=1, max_size=8)


def _client(params: dict[str, Any]) -> str:
    return "CYPHER " + "".join(f"`{k}`={stringify_param_value(v)} " for k, v in params.items())


def _written(write: Any, params: dict[str, Any]) -> str | type[Exception]:
    """What `write` answers for `params`, or the kind of error it raised."""
    try:
        return str(write(params))
    except ValueError as error:
        return type(error)


@settings(max_examples=500, deadline=None)  # 1,500 took 32 s of the first CI pass
@given(st.dictionaries(NAMES, VALUES, max_size=6))
def test_the_core_writes_the_header_the_client_writes(params: dict[str, Any]) -> None:
    assert native is not None
    client = _written(_client, params)
    assert _written(header_in_python, params) == client
    with KeyCoreBound("native"):
        assert _written(params_header, params) == client
    answer = _written(lambda p: native.params_header(p, stringify_param_value), params)
    if answer != "None":  # None: a lone surrogate, left to the twin (checked above)
        assert answer == client


def test_a_lone_surrogate_is_left_to_the_twin() -> None:
    assert native is not None
    params = {"names": ["Ada", "x\ud800y"], "n": 1}
    assert native.params_header(params, stringify_param_value) is None
    with KeyCoreBound("native"):
        assert params_header(params) == """CYPHER `names`=["Ada","x\ud800y"] `n`=1 """


def test_each_kind_of_value_is_written_as_the_client_writes_it() -> None:
    assert native is not None
    params = {
        "rows": [{"drawer": "d1", "props": {"name": 'A "b" \\ c', "n": -7, "ok": True}}],
        "pair": ("x", None),
        "big": 2**70,
        "ratio": 0.1,
        "huge": 1e300,
        "raw": b"\x00a",
        "empty": [],
        "nothing": {},
        "blank": "",
        "odd_keys": {"a b": 1, "é": [False]},
    }
    written = native.params_header(params, stringify_param_value)
    assert written == _client(params)
    assert written.startswith('CYPHER `rows`=[{`drawer`:"d1",`props`:{`name`:"A \\"b\\" \\\\ c"')
    assert "`big`=1180591620717411303424 `ratio`=0.1 `huge`=1e+300 `raw`=b'\\x00a' " in written


@pytest.mark.parametrize("bad", [{"": 1}, {"a`b": 1}])
def test_a_map_key_the_client_refuses_is_refused_the_same_way(bad: dict[str, int]) -> None:
    assert native is not None
    with pytest.raises(ValueError, match="Cypher map key"):
        native.params_header({"row": bad}, stringify_param_value)


def test_the_service_writes_through_the_core_it_chose() -> None:
    calls: list[dict[str, Any]] = []

    class Spy:
        def params_header(self, params: dict[str, Any], fallback: Any) -> str:
            calls.append(params)
            return "CYPHER from-the-core "

    with KeyCoreBound("python"):
        assert params_header({"a": 1}) == "CYPHER `a`=1 "
        assert calls == []
    with KeyCoreBound("native"):
        before = chosen_core.segments
        chosen_core.segments = Spy()  # type: ignore[assignment]
        try:
            assert params_header({"a": 1}) == "CYPHER from-the-core "
        finally:
            chosen_core.segments = before
    assert calls == [{"a": 1}]
