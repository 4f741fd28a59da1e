"""`-m neo4j` selects every test that runs on Neo4j and `-m "not neo4j"` none, however the
test reaches Neo4j: a backend fixture's `neo4j` value (the Browser tests give it with a
`parametrize` of their own, which once dropped the mark) or `neo4j_address` itself."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FILES = [
    "tests/api/test_neo4j_browser.py",  # parametrises `app_client` itself, Neo4j only
    "tests/api/test_candidate_indexes.py",  # both backends, and one test on `neo4j_address`
    "tests/store/test_entity_browse_plan.py",  # the `store` fixture, and the session's store
    "tests/e2e/test_two_instances.py",  # `neo4j_address` through fixtures of its own
]


def collected(*marks: str) -> set[str]:
    """Node ids pytest collects from `FILES` with the given `-m` arguments."""
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", *marks, *FILES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return {line for line in run.stdout.splitlines() if "::" in line}


NEO4J_ONLY = (
    "test_two_instances.py",
    "test_neo4j_browses_entities",
    "test_neo4j_keeps_its",
    "test_neo4j_drops_them",
)


def on_neo4j(node_id: str) -> bool:
    """A backend fixture's `neo4j` value in the id, or a test written for Neo4j alone."""
    params = node_id.partition("[")[2]
    return (
        "neo4j" in params.split("-")
        or "neo4j]" in params
        or any(name in node_id for name in NEO4J_ONLY)
    )


def test_the_neo4j_mark_splits_the_suite_exactly() -> None:
    marked = collected("-m", "neo4j")
    unmarked = collected("-m", "not neo4j")
    assert [node for node in marked if not on_neo4j(node)] == []
    assert [node for node in unmarked if on_neo4j(node)] == []
    assert len([node for node in marked if "test_neo4j_browser" in node]) == 4
    assert len([node for node in marked if "test_two_instances" in node]) == 5
    assert (
        "tests/api/test_candidate_indexes.py::"
        "test_neo4j_keeps_its_candidate_indexes_with_the_memory_indexes_on" in marked
    )
    assert any("[falkordb" in node for node in unmarked)
