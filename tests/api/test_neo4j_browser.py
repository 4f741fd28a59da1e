"""Neo4j Browser, for real: every ready query of `cypher/browser/queries.cypher` runs on a Neo4j
seeded through the API and returns rows, and every caption of the style sheet names a property
that the seeded nodes and edges carry."""

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from castlegraph.graph.schema import migrations
from tests.store.test_statement_plans import SCANS
from tests.support.app import app_store

BROWSER = Path(__file__).resolve().parents[2] / "cypher" / "browser"
PARAMS = {"name": "Ada Lovelace", "wing": "infra", "room": "ops"}
CAPTION = re.compile(r"(node|relationship)\.(\w+) \{[^}]*?caption: \"\{(\w+)\}\"", re.DOTALL)

pytestmark = pytest.mark.parametrize("app_client", ["neo4j"], indirect=True)


def ready_queries() -> list[tuple[str, str]]:
    """(title comment, statement) for each query of the file, in order."""
    found = []
    for block in (BROWSER / "queries.cypher").read_text(encoding="utf-8").split(";"):
        lines = [line for line in block.strip().splitlines() if line.strip()]
        comments = [line for line in lines if line.startswith("//")]
        statement = "\n".join(line for line in lines if not line.startswith("//"))
        if statement:
            found.append((comments[-1].lstrip("/ "), statement))
    return found


def seed(client: TestClient) -> None:
    """A small palace with every kind of node and edge the queries and captions speak of."""
    drawers = client.post(
        "/api/wings/infra/rooms/ops/drawers",
        json={"content": "Ada Lovelace wrote the first program for the analytical engine"},
    ).json()["drawer"]
    near = client.post(
        "/api/wings/infra/rooms/ops/drawers",
        json={"content": "Ada Lovelace wrote the first program for the analytical engnie"},
    )
    assert near.json()["similar"], near.text
    third = client.post(
        "/api/wings/infra/rooms/ops/drawers",
        json={"content": "The analytical engine ran the first program, written by Ada Lovelace"},
    ).json()["drawer"]
    alike = (
        (drawers, [1, 0, 0, 0]),
        (near.json()["drawer"], [1, 0.1, 0, 0]),
        (third, [1, 0, 0.1, 0]),
    )
    for drawer, vector in alike:
        embedded = client.put(f"/api/drawers/{drawer['id']}/embedding", json={"vector": vector})
        assert embedded.status_code == 200, embedded.text  # pending duplicate pairs
    verdict = {"a": drawers["id"], "b": third["id"], "status": "supplement"}
    assert client.post("/api/duplicates/verdicts", json=verdict).status_code == 200
    job = {"wing": "infra", "room": "ops", "items": [{"content": "a checkpoint of the run"}]}
    assert client.post("/api/checkpoints", json=job).status_code == 202
    mentions = [
        {"drawer": drawers["id"], "name": name, "kind": "person", "origin": {"document": "n.md"}}
        for name in ("Ada Lovelace", "Maria Lopez", "Mario Lopez")
    ]
    answered = client.post("/api/mentions", json={"mentions": mentions}).json()["results"]
    assert answered[2]["possibly_same_as"], answered  # a review link to look at
    ada = answered[0]["entity"]["id"]
    alias = client.post(f"/api/entities/{ada}/aliases", json={"alias": "Countess"})
    assert alias.status_code == 200
    migrations.migrate(app_store(client))  # the test's wipe took the migration records too


def test_every_ready_query_returns_rows(client: TestClient) -> None:
    seed(client)
    store = app_store(client)
    answers = {title: store.run_text(statement, PARAMS) for title, statement in ready_queries()}
    assert len(answers) == 7
    assert {title: len(rows) > 0 for title, rows in answers.items()} == dict.fromkeys(answers, True)


def captions() -> list[tuple[str, str, str]]:
    text = (BROWSER / "castlegraph.grass").read_text(encoding="utf-8")
    return CAPTION.findall(text)


def test_every_caption_names_a_property_the_graph_has(client: TestClient) -> None:
    seed(client)
    store = app_store(client)
    found: dict[str, Any] = {}
    for element, label, prop in captions():
        pattern = f"(x:{label})" if element == "node" else f"()-[x:{label}]->()"
        rows = store.run_text(  # labels and keys come from our own style sheet, not from input
            f"MATCH {pattern} WHERE x[$prop] IS NOT NULL RETURN count(x) AS n", {"prop": prop}
        )
        found[f"{label}.{prop}"] = rows[0]["n"] > 0
    assert len(found) >= 11
    assert found == dict.fromkeys(found, True)


def test_every_ready_query_starts_from_an_index_and_has_a_limit(client: TestClient) -> None:
    seed(client)
    store = app_store(client)
    plans = {title: store.plan_operators(statement, PARAMS) for title, statement in ready_queries()}
    assert {title: sorted(ops & SCANS) for title, ops in plans.items()} == {
        title: [] for title in plans
    }
    limited = {title: "LIMIT" in statement for title, statement in ready_queries()}
    assert limited == dict.fromkeys(limited, True)


def test_deprecations_reach_the_log(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    """The driver asks the server for warnings (not hints about property keys an empty palace
    lacks) and logs them on `neo4j.notifications`: a deprecated function shows in the log."""
    store = app_store(client)
    with caplog.at_level("WARNING", logger="neo4j.notifications"):
        store.run_text("MATCH (n:Entity) RETURN id(n) AS old LIMIT 1", {})
        store.run_text("MATCH (n:Entity) WHERE n.never_written_property = 1 RETURN n LIMIT 1", {})
    logged = [r.getMessage() for r in caplog.records if r.name == "neo4j.notifications"]
    assert any("id" in text and "deprecated" in text.lower() for text in logged), logged
    assert not any("never_written_property" in text for text in logged), logged
