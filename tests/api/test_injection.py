"""Cypher fragments, quotes, backticks and braces are stored as plain text, never executed."""

from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from tests.support.app import app_store

HOSTILE = [
    "x' }) MATCH (n) DETACH DELETE n //",
    'a" OR 1=1 //',
    "`Entity`) DETACH DELETE (",
    "} RETURN 1 UNION MATCH (n) RETURN n {",
    "$param ${x} \\u0027 \\\\",
    "CALL db.idx.fulltext.drop('Drawer')",
]


def entity_count(client: TestClient) -> int:
    """Nodes of the palace; Neo4j's lock nodes, which serialise writers, and the entity
    sequence's counter (a `Meta` node, created by the first entity write) are not data."""
    query = "MATCH (n) WHERE NOT n:Lock AND NOT n:Meta RETURN count(n) AS n"
    rows = app_store(client).run_text(query, {})
    return int(rows[0]["n"])


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_round_trips_everywhere(client: TestClient, text: str) -> None:
    # A slash cannot travel inside one path segment, even encoded: the rest can.
    wing, room = "wing " + text[:40].replace("/", "|"), "room " + text[:40].replace("/", "|")
    path = f"/api/wings/{quote(wing, safe='')}/rooms/{quote(room, safe='')}/drawers"
    written = client.post(path, json={"content": text, "name": text})
    assert written.status_code == 201, written.text
    drawer = written.json()["drawer"]
    assert (drawer["wing"], drawer["room"], drawer["name"], drawer["content"]) == (
        wing,
        room,
        text,
        text,
    )
    nodes_before = entity_count(client)
    batch = {
        "mentions": [
            {
                "drawer": drawer["id"],
                "name": text,
                "kind": text[:30],
                "extractor": text[:50],
                "origin": {"document": text},
            }
        ]
    }
    resolved = client.post("/api/mentions", json=batch)
    assert resolved.status_code == 200, resolved.text
    entity = resolved.json()["results"][0]["entity"]
    assert entity["name"] == text.strip()
    alias = client.post(f"/api/entities/{entity['id']}/aliases", json={"alias": text + "!"})
    assert alias.json()["aliases"] == [text + "!"]
    mentions = client.get(f"/api/entities/{entity['id']}/mentions").json()
    assert mentions[0]["provenance"]["origin"] == {"document": text}
    assert entity_count(client) == nodes_before + 1  # one entity more, nothing deleted
    listed = client.get(path).json()["drawers"]
    assert [d["content"] for d in listed] == [text]
