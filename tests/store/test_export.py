"""The export's reads and formats against real databases (every backend available).

The export is checked by what another tool sees: the GraphML parses with the expected nodes,
edges and typed keys, and the Cypher script, run line by line on an empty graph, recreates
exactly the exported nodes, edges and properties. The command itself:
tests/e2e/test_export_command.py.
"""

import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

import pytest

from castlegraph.api.errors import UnexportableValue
from castlegraph.api.export.cypher import literal, script
from castlegraph.api.export.cypher import string as cypher_string
from castlegraph.api.export.graphml import graphml
from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.errors import NothingToExport
from castlegraph.graph.export import KEYS, Subgraph, entity_subgraph, room_subgraph
from tests.support.export_graph import GRAPHML_NS, SPECIAL, seed


def canonical(props: Mapping[str, Any]) -> str:
    return json.dumps(dict(props), sort_keys=True, ensure_ascii=False)


def identity(label: str, props: Mapping[str, Any]) -> tuple[str, tuple[Any, ...]]:
    return label, tuple(props[key] for key in KEYS[label])


def stored(store: Any) -> tuple[set[Any], set[Any]]:
    """Every node and edge in the database, as comparable tuples."""
    nodes = {
        (row["labels"][0], canonical(row["props"]))
        for row in store.run_text(
            "MATCH (n) RETURN labels(n) AS labels, properties(n) AS props", {}
        )
    }
    edges = {
        (
            row["type"],
            identity(row["a"][0], row["ap"]),
            identity(row["b"][0], row["bp"]),
            canonical(row["props"]),
        )
        for row in store.run_text(
            "MATCH (a)-[r]->(b) RETURN type(r) AS type, labels(a) AS a, properties(a) AS ap,"
            " labels(b) AS b, properties(b) AS bp, properties(r) AS props",
            {},
        )
    }
    return nodes, edges


def exported(graph: Subgraph) -> tuple[set[Any], set[Any]]:
    nodes = {(ref[0], canonical(props)) for ref, props in graph.nodes.items()}
    edges = {(e.type, e.source, e.target, canonical(e.props)) for e in graph.edges.values()}
    return nodes, edges


def counts(graph: Subgraph) -> tuple[dict[str, int], dict[str, int]]:
    labels: dict[str, int] = {}
    types: dict[str, int] = {}
    for label, _ in graph.nodes:
        labels[label] = labels.get(label, 0) + 1
    for edge in graph.edges.values():
        types[edge.type] = types.get(edge.type, 0) + 1
    return labels, types


def run_script(store: Any, text: str) -> int:
    statements = [line for line in text.split("\n") if line and not line.startswith("//")]
    for line in statements:
        store.run_text(line, {})
    return len(statements)


# --- export: the reads --------------------------------------------------------------------------


def test_an_entity_neighbourhood(store: GraphStore) -> None:
    seed(store)
    ada = entity_subgraph(store, "ada lovelace", "Person")
    assert counts(ada) == ({"Drawer": 3, "Entity": 1}, {"MENTIONS": 3, "SIMILAR_TO": 1})
    [(_, props)] = [item for item in ada.nodes.items() if item[0][0] == "Entity"]
    assert (props["name"], props["aliases"]) == ("Ada Lovelace", ["ADA LOVELACE"])
    assert not {"dkeys", "dkeys_text", "terms", "terms_text", "embedding"} & {
        key for node in ada.nodes.values() for key in node
    }
    mario = entity_subgraph(store, "Mario Lopez")
    assert counts(mario) == (
        {"Drawer": 2, "Entity": 2},  # the near copy comes with the SIMILAR_TO edge
        {"MENTIONS": 1, "POSSIBLY_SAME_AS": 1, "SIMILAR_TO": 1},
    )
    with pytest.raises(NothingToExport, match="no entity named 'Grace'"):
        entity_subgraph(store, "Grace")
    with pytest.raises(NothingToExport):
        entity_subgraph(store, "Ada Lovelace", "tool")


def test_a_room(store: GraphStore) -> None:
    seed(store)
    ops = room_subgraph(store, "infra", "ops")
    assert counts(ops) == (
        {"Wing": 1, "Room": 1, "Drawer": 3, "Entity": 3},
        {"HAS_ROOM": 1, "HAS_DRAWER": 3, "MENTIONS": 4, "SIMILAR_TO": 1},
    )
    [similar] = [e for e in ops.edges.values() if e.type == "SIMILAR_TO"]
    assert (similar.props["kind"], similar.props["same_hash"]) == ("near", False)
    with pytest.raises(NothingToExport, match="no room 'nope' in wing 'infra'"):
        room_subgraph(store, "infra", "nope")


# --- export: the formats ------------------------------------------------------------------------


def test_graphml_parses_with_typed_keys(store: GraphStore) -> None:
    seed(store)
    graph = room_subgraph(store, "infra", "ops")
    root = ET.fromstring(graphml(graph))  # noqa: S314  # our own output
    keys = {
        (k.get("for"), k.get("attr.name")): (k.get("id"), k.get("attr.type"))
        for k in root.findall("g:key", GRAPHML_NS)
    }
    nodes = root.findall("g:graph/g:node", GRAPHML_NS)
    edges = root.findall("g:graph/g:edge", GRAPHML_NS)
    assert (len(nodes), len(edges)) == (8, 9)
    assert keys[("edge", "similarity")][1] == "double"
    assert keys[("edge", "same_hash")][1] == "boolean"
    assert keys[("node", "norm_len")][1] == "long"
    assert keys[("node", "aliases")][1] == "string"
    ids = {node.get("id") for node in nodes}
    assert all(edge.get("source") in ids and edge.get("target") in ids for edge in edges)
    declared = {key_id for key_id, _ in keys.values()}
    assert all(d.get("key") in declared for d in root.iter(f"{{{GRAPHML_NS['g']}}}data"))

    def data(element: ET.Element, name: str, domain: str) -> str | None:
        found = element.find(f"g:data[@key='{keys[(domain, name)][0]}']", GRAPHML_NS)
        return None if found is None else found.text

    labels = sorted(str(data(node, "labels", "node")) for node in nodes)
    assert labels == [":Drawer"] * 3 + [":Entity"] * 3 + [":Room", ":Wing"]
    assert SPECIAL in [data(node, "content", "node") for node in nodes]
    aliases = [
        data(n, "aliases", "node") for n in nodes if data(n, "name", "node") == "Ada Lovelace"
    ]
    assert [json.loads(str(a)) for a in aliases] == [["ADA LOVELACE"]]
    assert sorted(str(data(e, "label", "edge")) for e in edges).count("MENTIONS") == 4


@pytest.mark.parametrize("which", ["room", "entity"])
def test_the_cypher_script_recreates_the_subgraph(store: Any, which: str) -> None:
    seed(store)
    graph = (
        room_subgraph(store, "infra", "ops")
        if which == "room"
        else entity_subgraph(store, "Mario Lopez", "person")
    )
    text = script(graph, "test\nMATCH (n) DETACH DELETE n")
    assert text.splitlines()[0] == "// castlegraph export: 'test\\nMATCH (n) DETACH DELETE n'"
    store.wipe()
    assert run_script(store, text) == len(graph.nodes) + len(graph.edges)
    assert stored(store) == exported(graph)
    if which == "room":  # read back the same way, it is the same script
        assert (
            script(room_subgraph(store, "infra", "ops"), "test\nMATCH (n) DETACH DELETE n") == text
        )


def test_cypher_literals() -> None:
    assert literal("It's \\ \n\t\r") == "'It\\'s \\\\ \\n\\t\\r'"
    assert literal([1, 2.5, True, "a"]) == "[1, 2.5, true, 'a']"
    assert (literal(False), literal(-3), literal(1e-05), literal([])) == (
        "false",
        "-3",
        "1e-05",
        "[]",
    )
    with pytest.raises(UnexportableValue):
        literal(float("nan"))
    with pytest.raises(UnexportableValue):
        literal({"a": 1})


TRICKY = "a\u2028b\u0085c\x0bd\x1fe\u2029f\x7fg\\h'i\nj\x00k"


def test_a_string_literal_is_one_line_and_neo4j_reads_it_back(neo4j_session_store: Any) -> None:
    """Every line separator a reader may honour is escaped; Neo4j reads the escapes back."""
    written = cypher_string(TRICKY)
    assert written.splitlines() == [written]
    assert neo4j_session_store.run_text(f"RETURN {written} AS s", {}) == [{"s": TRICKY}]
