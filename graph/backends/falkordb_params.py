"""FalkorDB's parameter header, written by the compiled core where it runs, else with a handful
of C-level string operations per list.

FalkorDB takes parameters as a `CYPHER name=value ...` header in front of the query text, and
its Python client writes it one value at a time, costly for the tens of thousands of strings a
mention batch sends (design §5.4). `params_header` writes the very same text, faster where it
matters; anything else is left to the client's own function.
"""

from typing import Any

from falkordb.helpers import stringify_param_value

from castlegraph.resolver import core as chosen_core

_SEPARATORS = "\x1f\x1e\x1d\x1c\x00"
"""Tried in turn to join a list of strings: control characters no key or name holds."""


def params_header(params: dict[str, Any]) -> str:
    """The `CYPHER ...` header the client would write for `params` (names are castlegraph's
    own: plain identifiers, so the client's checks on them are not repeated). The tests compare
    it with the client's on generated values, so the output never drifts from what the server
    is known to parse. The compiled core writes it in one call where it runs (None: a string it
    cannot read, a lone surrogate, left to its twin `header_in_python`)."""
    native = chosen_core.segments
    if native is not None:
        header: str | None = native.params_header(params, stringify_param_value)
        if header is not None:
            return header
    return header_in_python(params)


def header_in_python(params: dict[str, Any]) -> str:
    """`params_header`'s pure-Python twin."""
    return "CYPHER " + "".join(f"`{name}`={encode(value)} " for name, value in params.items())


def encode(value: Any) -> str:
    """One parameter value as `stringify_param_value` writes it."""
    kind = type(value)
    if kind is str:
        return _quote(value)
    if kind is list or kind is tuple:
        return _list(value)
    if kind is dict:
        return _map(value)
    return str(stringify_param_value(value))


def _quote(text: str) -> str:
    if not text:
        return '""'
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _list(items: list[Any] | tuple[Any, ...]) -> str:
    """A list of strings is joined with a separator none of them contains, escaped once and
    split into quoted items by one `replace`, all in C; the client's `stringify_param_value`
    would make a Python call, type checks and two `replace` per string."""
    if not items:
        return "[]"
    joined = _joined_strings(items)
    if joined is None:
        return "[" + ",".join(map(encode, items)) + "]"
    text, separator = joined
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '["' + escaped.replace(separator, '","') + '"]'


def _joined_strings(items: list[Any] | tuple[Any, ...]) -> tuple[str, str] | None:
    """The items joined by a separator none of them holds, if they are all strings."""
    for separator in _SEPARATORS:
        try:
            text = separator.join(items)
        except TypeError:  # not all strings (or bytes among them): item by item
            return None
        if text.count(separator) == len(items) - 1:
            return text, separator
    return None


def _map(mapping: dict[Any, Any]) -> str:
    for key in mapping:
        if type(key) is not str or not key or "`" in key:
            return str(stringify_param_value(mapping))  # the client's checks and errors
    return "{" + ",".join(f"`{key}`:{encode(value)}" for key, value in mapping.items()) + "}"
