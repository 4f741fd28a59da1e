"""Settling two entities as one is a review verdict, never an alias (design §11): an alias that
is another entity's spelling is refused, and `different` on a link settled `same` undoes it."""

import uuid
from typing import Any

from fastapi.testclient import TestClient

from castlegraph.resolver.entity_model import EntityView
from tests.support.app import app_store, assert_envelope
from tests.support.entity_http import candidates, entity, see_all, seed_entity, verdict
from tests.support.seeding import insert_entity

LINK = """MATCH (newer:Entity {id: $newer}), (older:Entity {id: $older})
CREATE (newer)-[:POSSIBLY_SAME_AS {similarity: 0.9, distance: 1, reason: 'known_words',
  status: 'pending', created_at: '2026-01-01T00:00:00.000000Z'}]->(older)"""


def settle(client: TestClient, entity_id: str, other_id: str, how: str) -> dict[str, Any]:
    path = f"/api/entities/{entity_id}/candidates/{other_id}"
    response = client.post(path, json={"verdict": how})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def dry_run(client: TestClient, name: str, kind: str) -> dict[str, Any]:
    response = client.post("/api/resolve", json={"name": name, "kind": kind})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def pair(client: TestClient, kind: str, older: str, newer: str) -> tuple[str, str]:
    """Two entities with a review link between them: (older id, newer id)."""
    first, second = see_all(client, kind, older, newer)
    assert second["possibly_same_as"] == [first["entity"]["id"]]
    return first["entity"]["id"], second["entity"]["id"]


# --- an alias that is another entity's key ------------------------------------------------------


def test_another_entitys_name_as_an_alias_is_refused_and_nothing_changes(
    client: TestClient,
) -> None:
    maria, mario = pair(client, "person", "Maria Lopez", "Mario Lopez")
    response = client.post(f"/api/entities/{maria}/aliases", json={"alias": "Mario Lopez"})
    assert response.status_code == 409
    assert_envelope(response.json(), "graph::alias_taken")
    assert response.json()["error"]["details"]["entity"] == mario
    assert entity(client, maria)["aliases"] == []
    assert [c["entity"]["id"] for c in candidates(client, maria)] == [mario]  # still pending
    again = dry_run(client, "Mario Lopez", "person")
    assert (again["rule"], again["entity"]["id"]) == ("exact", mario)


def test_another_spelling_of_that_name_is_refused_too(client: TestClient) -> None:
    maria, mario = pair(client, "person", "Maria Lopez", "Mario Lopez")
    response = client.post(f"/api/entities/{maria}/aliases", json={"alias": "MARIO  lopez"})
    assert response.status_code == 409
    assert response.json()["error"]["details"]["entity"] == mario


def test_another_entitys_alias_is_refused(client: TestClient) -> None:
    ibm = see_all(client, "org", "International Business Machines")[0]["entity"]["id"]
    added = client.post(f"/api/entities/{ibm}/aliases", json={"alias": "IBM"})
    assert added.status_code == 200
    other = see_all(client, "org", "Big Blue Consulting")[0]["entity"]["id"]
    response = client.post(f"/api/entities/{other}/aliases", json={"alias": "I.B.M."})
    assert response.status_code == 409
    assert_envelope(response.json(), "graph::alias_taken")
    assert response.json()["error"]["details"]["entity"] == ibm
    assert entity(client, other)["aliases"] == []


def test_kind_other_meets_every_kind_and_other_kinds_never_meet(client: TestClient) -> None:
    panther = see_all(client, "tool", "Panther")[0]["entity"]["id"]
    jaguar = see_all(client, "other", "Jaguar")[0]["entity"]["id"]
    ada = see_all(client, "person", "Ada Lovelace")[0]["entity"]["id"]
    onto_other = client.post(f"/api/entities/{panther}/aliases", json={"alias": "jaguar"})
    assert (onto_other.status_code, onto_other.json()["error"]["details"]["entity"]) == (
        409,
        jaguar,
    )
    from_other = client.post(f"/api/entities/{jaguar}/aliases", json={"alias": "PANTHER"})
    assert (from_other.status_code, from_other.json()["error"]["details"]["entity"]) == (
        409,
        panther,
    )
    across = client.post(f"/api/entities/{ada}/aliases", json={"alias": "Panther"})
    assert (across.status_code, across.json()["aliases"]) == (200, ["Panther"])


def test_a_spelling_of_its_own_name_is_still_an_alias(client: TestClient) -> None:
    ada = see_all(client, "person", "Ada Lovelace")[0]["entity"]["id"]
    response = client.post(f"/api/entities/{ada}/aliases", json={"alias": "ADA LOVELACE"})
    assert (response.status_code, response.json()["aliases"]) == (200, ["ADA LOVELACE"])


# --- undo -----------------------------------------------------------------------------------------


def test_different_after_same_removes_the_alias_and_resolution_is_as_before(
    client: TestClient,
) -> None:
    katarina, katerina = pair(client, "person", "Katarina Lindqvist", "Katerina Lindqvist")
    before = dry_run(client, "Katerina Lindqvist", "person")
    assert (before["rule"], before["entity"]["id"]) == ("exact", katerina)
    same = settle(client, katarina, katerina, "same")
    assert (same["id"], same["aliases"]) == (katarina, ["Katerina Lindqvist"])
    assert "undone" not in same
    meanwhile = see_all(client, "person", "Katerina Lindqvist")[0]
    assert (meanwhile["entity"]["id"], meanwhile["observation"]["rule"]) == (katarina, "alias")

    undone = settle(client, katerina, katarina, "different")  # the other order
    assert (undone["id"], undone["aliases"], undone["undone"]) == (katarina, [], "same")
    assert entity(client, katarina)["aliases"] == []
    assert "same_as" not in entity(client, katerina)
    after = dry_run(client, "Katerina Lindqvist", "person")
    assert (after["rule"], after["entity"]["id"]) == ("exact", katerina)
    later = see_all(client, "person", "Katerina Lindqvist")[0]
    assert verdict(later) == (False, "exact", 1.0)
    assert later["entity"]["id"] == katerina
    mentions = client.get(f"/api/entities/{katarina}/mentions").json()
    assert "Katerina Lindqvist" in {m["observation"]["name"] for m in mentions}  # kept
    assert candidates(client, katarina) == []  # settled `different`: never proposed again


def test_same_after_different_records_the_alias(client: TestClient) -> None:
    maria, mario = pair(client, "person", "Maria", "Mario")
    different = settle(client, mario, maria, "different")
    assert (different["aliases"], "undone" in different) == ([], False)
    same = settle(client, mario, maria, "same")
    assert (same["id"], same["aliases"], "undone" in same) == (maria, ["Mario"], False)
    later = dry_run(client, "MARIO", "person")
    assert (later["rule"], later["entity"]["id"]) == ("alias", maria)
    assert entity(client, mario)["same_as"] == maria


def test_same_twice_then_different_still_removes_the_alias(client: TestClient) -> None:
    maria, mario = pair(client, "person", "Maria", "Mario")
    settle(client, mario, maria, "same")
    assert settle(client, maria, mario, "same")["aliases"] == ["Mario"]
    undone = settle(client, mario, maria, "different")
    assert (undone["aliases"], undone["undone"]) == ([], "same")


def test_undo_keeps_an_alias_the_older_entity_had_before_the_verdict(client: TestClient) -> None:
    store = app_store(client)
    older = EntityView.of(str(uuid.uuid4()), "Katarina", "person", aliases=("Katerina",))
    insert_entity(store, older, created_at="2024-01-01T00:00:00.000000Z")
    newer = seed_entity(client, "Katerina", "person")
    store.run_text(LINK, {"newer": newer, "older": older.id})
    assert settle(client, newer, older.id, "same")["aliases"] == ["Katerina"]
    undone = settle(client, newer, older.id, "different")
    assert (undone["aliases"], undone["undone"]) == (["Katerina"], "same")


def test_different_twice_undoes_nothing(client: TestClient) -> None:
    maria, mario = pair(client, "person", "Maria", "Mario")
    settle(client, mario, maria, "different")
    again = settle(client, mario, maria, "different")
    assert (again["aliases"], "undone" in again) == ([], False)


def test_hygiene_counts_only_pending_links(client: TestClient) -> None:
    maria, mario = pair(client, "person", "Maria Lopez", "Mario Lopez")
    marian, marion = pair(client, "person", "Jon Snow", "John Snow")

    def pending() -> int:
        response = client.get("/api/hygiene")
        assert response.status_code == 200
        count: int = response.json()["possibly_same_as_pending"]
        return count

    assert pending() == 2
    settle(client, mario, maria, "same")
    assert pending() == 1
    settle(client, marian, marion, "different")
    assert pending() == 0
    settle(client, mario, maria, "different")  # undone, but settled
    assert pending() == 0
