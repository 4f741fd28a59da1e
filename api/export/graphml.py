"""A subgraph as GraphML (http://graphml.graphdrawing.org/), for Gephi, yEd, NetworkX or APOC.

Every property gets a typed `<key>` per domain (`_key_types`). Like APOC's
`apoc.export.graphml`, a node's labels are the `labels` data (`:Drawer`) and an edge's type the
`label` data (`SIMILAR_TO`).
"""

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import Any

from castlegraph.graph.export import NodeRef, Subgraph

NAMESPACE = "http://graphml.graphdrawing.org/xmlns"
SCHEMA = "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
NODE_LABELS = "labels"
EDGE_TYPE = "label"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
"""Characters XML 1.0 cannot carry even escaped: written as U+FFFD (the Cypher export keeps
them). XML parsers also read a carriage return as a line feed."""


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    return "string"


def _key_types(rows: Iterable[dict[str, Any]]) -> dict[str, str]:
    """`string`, `boolean`, `long` or `double` per key; a key whose values mix integers and
    floats is `double`, any other mix is `string`. GraphML has no list type, so lists (entity
    aliases) are written as JSON text in a `string` key."""
    seen: dict[str, set[str]] = {}
    for props in rows:
        for name, value in props.items():
            seen.setdefault(name, set()).add(_kind(value))
    types = {}
    for name, kinds in seen.items():
        if len(kinds) == 1:
            types[name] = next(iter(kinds))
        else:
            types[name] = "double" if kinds == {"long", "double"} else "string"
    return types


def _text(value: Any, type_: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return _NOT_XML.sub("\ufffd", json.dumps(list(value), ensure_ascii=False))
    if type_ == "double":
        return repr(float(value))
    return _NOT_XML.sub("\ufffd", str(value))


def _keys(root: ET.Element, domain: str, first: str, types: dict[str, str]) -> dict[str, str]:
    """Declare the keys of one domain; returns property name -> key id."""
    ids = {first: f"{domain}.{first}"}
    ET.SubElement(
        root, "key", {"id": ids[first], "for": domain, "attr.name": first, "attr.type": "string"}
    )
    for name in sorted(types):
        ids[name] = f"{domain}.{name}" if name != first else f"{domain}.{name}.property"
        attrs = {"id": ids[name], "for": domain, "attr.name": name, "attr.type": types[name]}
        ET.SubElement(root, "key", attrs)
    return ids


def _data(element: ET.Element, key_id: str, value: Any, type_: str) -> None:
    ET.SubElement(element, "data", {"key": key_id}).text = _text(value, type_)


def graphml(graph: Subgraph) -> str:
    """The document; element ids are `n0`, `n1`, ... and `e0`, ... (GraphML ids are XML name
    tokens, which a wing name need not be)."""
    nodes = graph.sorted_nodes()
    edges = graph.sorted_edges()
    node_types = _key_types(props for _, props in nodes)
    edge_types = _key_types(edge.props for edge in edges)
    root = ET.Element(
        "graphml",
        {"xmlns": NAMESPACE, "xmlns:xsi": XSI, "xsi:schemaLocation": f"{NAMESPACE} {SCHEMA}"},
    )
    node_keys = _keys(root, "node", NODE_LABELS, node_types)
    edge_keys = _keys(root, "edge", EDGE_TYPE, edge_types)
    body = ET.SubElement(root, "graph", {"id": "castlegraph", "edgedefault": "directed"})
    ids: dict[NodeRef, str] = {}
    for ref, props in nodes:
        ids[ref] = f"n{len(ids)}"
        node = ET.SubElement(body, "node", {"id": ids[ref]})
        ET.SubElement(node, "data", {"key": node_keys[NODE_LABELS]}).text = f":{ref[0]}"
        for name, value in sorted(props.items()):
            _data(node, node_keys[name], value, node_types[name])
    for number, edge in enumerate(edges):
        attrs = {"id": f"e{number}", "source": ids[edge.source], "target": ids[edge.target]}
        element = ET.SubElement(body, "edge", attrs)
        ET.SubElement(element, "data", {"key": edge_keys[EDGE_TYPE]}).text = edge.type
        for name, value in sorted(edge.props.items()):
            _data(element, edge_keys[name], value, edge_types[name])
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
