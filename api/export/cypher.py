"""A subgraph as a Cypher script of `CREATE` statements that another database can run.

A script cannot take parameters, so every value is written as a Cypher literal (`literal`), and
every statement is exactly one line ending in `;`: `cypher-shell -f export.cypher` runs it, and
so does a loop over its lines (FalkorDB takes one statement per query).
"""

import math
import re
from collections.abc import Iterable
from typing import Any

from castlegraph.api.errors import UnexportableValue
from castlegraph.graph.export import KEYS, Edge, NodeRef, Subgraph

_ESCAPES = {
    "\\": "\\\\",
    "'": "\\'",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
    "\0": "\\u0000",  # Neo4j reads it; FalkorDB cannot store a NUL in a string at all
}
_NEEDS_ESCAPE = re.compile("[\\\\'\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""Every control character and Unicode line separator: each would break a statement's one line
for some reader (U+0085, U+2028 and `\\x0b` split lines in Python's `splitlines` and editors)."""
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def string(value: str) -> str:
    """Single-quoted with backslash escapes; line breaks, tabs and the other escapable
    characters are escaped too, so a statement stays on one line."""
    return "'" + _NEEDS_ESCAPE.sub(_escaped, value) + "'"


def _escaped(found: re.Match[str]) -> str:
    char = found.group()
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def literal(value: Any) -> str:
    """The Cypher literal for a property value; bool before int, since bool is an int."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise UnexportableValue(f"{value!r} has no Cypher literal")
        return repr(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(literal(item) for item in value) + "]"
    raise UnexportableValue(f"a {type(value).__name__} cannot be a property value")


def key(name: str) -> str:
    """A property key, backquoted unless it is a plain identifier."""
    if _IDENTIFIER.fullmatch(name):
        return name
    return "`" + name.replace("`", "``") + "`"


def properties(props: dict[str, Any]) -> str:
    if not props:
        return ""
    return " {" + ", ".join(f"{key(k)}: {literal(v)}" for k, v in sorted(props.items())) + "}"


def _pattern(variable: str, ref: NodeRef) -> str:
    label, values = ref
    identity = dict(zip(KEYS[label], values, strict=True))
    return f"({variable}:{label}{properties(identity)})"


def _create_edge(edge: Edge) -> str:
    return (
        f"MATCH {_pattern('a', edge.source)} MATCH {_pattern('b', edge.target)} "
        f"CREATE (a)-[:{edge.type}{properties(edge.props)}]->(b);"
    )


def statements(graph: Subgraph) -> Iterable[str]:
    """Nodes first; each edge then finds its two ends by the properties their uniqueness
    constraints cover (`KEYS`), so the script expects a graph that does not hold those nodes yet
    (a fresh database, or one with castlegraph's schema applied)."""
    for (label, _), props in graph.sorted_nodes():
        yield f"CREATE (:{label}{properties(props)});"
    for edge in graph.sorted_edges():
        yield _create_edge(edge)


def script(graph: Subgraph, title: str) -> str:
    """The whole script: a comment header (the title as an escaped literal), then one statement
    per line."""
    header = [
        f"// castlegraph export: {string(title)}",
        f"// {len(graph.nodes)} nodes, {len(graph.edges)} relationships; one statement per line",
    ]
    return "\n".join([*header, *statements(graph)]) + "\n"
