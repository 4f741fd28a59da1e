"""Browsing entities (`GET /api/entities` without a name) starts where the cursor points, from
an index or FalkorDB's node-id range: never a scan over every entity, which a graph of millions
could not afford a page."""

from typing import Any

import pytest

from castlegraph.graph.backends.queries import statement

PAGES = [
    ("browse_entities", {"after": "a", "limit": 101}),
    ("browse_entities_of_kind", {"kind": "person", "after": "a", "limit": 101}),
]
FALKORDB_PAGES = [
    ("browse_entities", {"after": 1000, "limit": 101}, "Node By Label and ID Scan"),
    ("browse_entities_of_kind", {"kind": "person", "after": 1000, "limit": 101}, "Index Scan"),
]


@pytest.mark.parametrize(("name", "params", "start"), FALKORDB_PAGES)
def test_falkordb_browses_entities_from_the_cursor(
    falkordb_store: Any, name: str, params: dict[str, Any], start: str
) -> None:
    plan = falkordb_store.explain(statement(name, "falkordb"), params)
    assert start in plan, plan
    assert "Node By Label Scan" not in plan and "All Node Scan" not in plan, plan


@pytest.mark.neo4j
@pytest.mark.parametrize(("name", "params"), PAGES)
def test_neo4j_browses_entities_by_index(neo4j_session_store: Any, name: str, params: Any) -> None:
    operators = neo4j_session_store.plan_operators(statement(name, "neo4j"), params)
    assert any("IndexSeek" in op for op in operators), operators
    assert not {"AllNodesScan", "NodeByLabelScan"} & set(operators), operators
