"""The review links of the whole palace are read from an index on their status or similarity
(design §11): never a walk over all entities or all links, and a page reads a band of
similarities just below the cursor, widened until it holds the page."""

from typing import Any

import pytest

from castlegraph.graph.backends.queries import statement
from castlegraph.graph.entities.review_links import review_links

PAGE = {
    "status": "pending",
    "kind": None,
    "reason": None,
    "after_similarity": 0.9,
    "after_a": "a",
    "after_b": "b",
    "tolerance": 1e-9,
    "lower": 0.89,
    "upper": 0.9,
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


@pytest.mark.neo4j
@pytest.mark.parametrize(
    ("name", "params"), [("review_links_page", PAGE), ("count_pending_review_links", {})]
)
def test_neo4j_seeks_the_status_index(neo4j_session_store: Any, name: str, params: Any) -> None:
    """The schema's relationship index answers both, as its plan says."""
    operators = neo4j_session_store.plan_operators(statement(name, "neo4j"), params)
    assert any(op.startswith("DirectedRelationshipIndexSeek") for op in operators), operators
    assert not {"AllNodesScan", "NodeByLabelScan", "DirectedRelationshipTypeScan"} & set(operators)


SIMILARITIES = [0.995, 0.99, 0.93, 0.61, 0.2, 0.2, 0.05]


def _links(store: Any, similarities: list[float]) -> None:
    """Pending links far apart in similarity (and one settled), written directly."""
    rows = [
        {"a": f"a{n}", "b": f"b{n}", "s": similarity, "st": "pending"}
        for n, similarity in enumerate(similarities)
    ] + [{"a": "a-settled", "b": "b-settled", "s": 0.97, "st": "same"}]
    store.run_text(
        "UNWIND $rows AS r "
        "CREATE (a:Entity {id: r.a, name: r.a, kind: 'person', key: r.a, created_at: 'x'}) "
        "CREATE (b:Entity {id: r.b, name: r.b, kind: 'person', key: r.b, created_at: 'x'}) "
        "CREATE (b)-[:POSSIBLY_SAME_AS {status: r.st, similarity: r.s, reason: 'known_words', "
        "created_at: 'x', distance: 1}]->(a)",
        {"rows": rows},
    )


def test_pages_widen_their_band_until_full_and_never_skip_or_repeat(store: Any) -> None:
    _links(store, SIMILARITIES)
    seen: list[tuple[float, str]] = []
    cursor: str | None = None
    sizes = []
    while True:
        page, cursor = review_links(store, "pending", limit=2, cursor=cursor)
        sizes.append(len(page))
        seen += [(link.similarity, link.older.view.id) for link in page]
        if cursor is None:
            break
    assert [similarity for similarity, _ in seen] == SIMILARITIES
    assert [older for _, older in seen] == [f"a{n}" for n in range(len(SIMILARITIES))]
    assert sizes == [2, 2, 2, 1]
    assert [link.older.view.id for link in review_links(store, "same")[0]] == ["a-settled"]
