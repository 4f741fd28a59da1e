"""Every statement castlegraph sends to Neo4j starts from an index (design §5.4), checked on
the live server's own plans: `EXPLAIN` of each `.cypher` file, without running it.

A scan of a whole label or relationship type, or a Cartesian product, fails the test unless
the statement says why it may in a comment of its own: `// plan: NodeByLabelScan — ...` (a
migration step that reads every node once, the few `Migration` nodes, two seeks of one row
each). So a scope that keeps the planner off its index cannot creep in unnoticed.
"""

import re
from pathlib import Path

import pytest

from castlegraph.graph.backends.neo4j_store import Neo4jStore, locked_statement
from castlegraph.graph.backends.queries import statement

CYPHER = Path(__file__).resolve().parents[2] / "cypher"
SCANS = frozenset(
    {
        "AllNodesScan",
        "NodeByLabelScan",
        "DirectedAllRelationshipsScan",
        "UndirectedAllRelationshipsScan",
        "DirectedRelationshipTypeScan",
        "UndirectedRelationshipTypeScan",
        "CartesianProduct",
    }
)
JUSTIFIED = re.compile(r"//\s*plan:\s*(\w+)")


def _names() -> list[str]:
    shared = {path.stem for path in CYPHER.glob("*.cypher")}
    return sorted(shared | {path.stem for path in (CYPHER / "neo4j").glob("*.cypher")})


def _justified(text: str) -> set[str]:
    return set(JUSTIFIED.findall(text))


@pytest.mark.neo4j
def test_no_statement_scans_without_saying_why(neo4j_session_store: Neo4jStore) -> None:
    unjustified: dict[str, list[str]] = {}
    for name in _names():
        text = statement(name, "neo4j")
        scans = neo4j_session_store.plan_operators(text, {}) & SCANS
        if scans - _justified(text):
            unjustified[name] = sorted(scans - _justified(text))
    assert unjustified == {}


LOCKED = ["create_drawer_unless_moved", "current_drawers_by_name", "drawer_by_id"]
"""The statements a unit runs with its lock (`Tx.run_locked`): the lock leads them."""


@pytest.mark.neo4j
@pytest.mark.parametrize("name", LOCKED)
def test_a_statement_led_by_its_lock_still_starts_from_indexes(
    neo4j_session_store: Neo4jStore, name: str
) -> None:
    text = locked_statement(statement(name, "neo4j"))
    operators = neo4j_session_store.plan_operators(text, {})
    assert "NodeUniqueIndexSeek(Locking)" in operators  # the lock, by its constraint
    assert operators & SCANS - _justified(text) == set()


def test_a_justification_names_an_operator_the_test_knows() -> None:
    """A misspelt operator would justify nothing and hide nothing: each one named is real."""
    named = {
        (path.name, operator)
        for path in CYPHER.rglob("*.cypher")
        for operator in _justified(path.read_text(encoding="utf-8"))
    }
    assert {(file, op) for file, op in named if op not in SCANS} == set()


def test_a_union_is_never_led_by_its_lock() -> None:
    """The lock would lead its first part only: the later parts would read before it."""
    with pytest.raises(ValueError, match="UNION"):
        locked_statement(statement("drawer_candidates_by_ids", "neo4j"))
    assert locked_statement("MATCH (n) RETURN n").endswith("MATCH (n) RETURN n")
