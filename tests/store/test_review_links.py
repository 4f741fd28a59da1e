"""The review links of the whole palace are read from the index on their status (design §11):
never a walk over all entities or all links."""

from typing import Any

import neo4j
import pytest

from castlegraph.graph.backends.queries import statement

PAGE = {
    "status": "pending",
    "kind": None,
    "reason": None,
    "after_similarity": 0.9,
    "after_a": "a",
    "after_b": "b",
    "tolerance": 1e-9,
    "limit": 101,
}


@pytest.mark.parametrize(
    ("name", "params"), [("review_links_page", PAGE), ("count_pending_review_links", {})]
)
def test_review_links_come_from_the_status_index(
    falkordb_store: Any, name: str, params: dict[str, Any]
) -> None:
    """Read from FalkorDB's plan (Neo4j's planner uses the indexes the schema declares)."""
    plan = falkordb_store.explain(statement(name, "falkordb"), params)
    assert "Edge By Index Scan" in plan, plan
    assert "Label Scan" not in plan and "All Node Scan" not in plan, plan


def _operators(plan: dict[str, Any]) -> list[str]:
    children = plan.get("children", [])
    return [plan["operatorType"], *(op for child in children for op in _operators(child))]


@pytest.mark.neo4j
@pytest.mark.parametrize(
    ("name", "params"), [("review_links_page", PAGE), ("count_pending_review_links", {})]
)
def test_neo4j_seeks_the_status_index(
    neo4j_session_store: Any, neo4j_address: tuple[str, str, str], name: str, params: Any
) -> None:
    """The schema's relationship index answers both, as its plan says."""
    uri, user, password = neo4j_address
    with neo4j.GraphDatabase.driver(uri, auth=(user, password)) as driver:
        summary = driver.execute_query("EXPLAIN " + statement(name, "neo4j"), params).summary
    assert summary.plan is not None
    operators = [op.split("@")[0] for op in _operators(summary.plan)]
    assert "DirectedRelationshipIndexSeek" in operators, operators
    assert not {"AllNodesScan", "NodeByLabelScan", "DirectedRelationshipTypeScan"} & set(operators)
