"""Reads through the entity routes of the real app: the resolve dry run, which writes nothing,
and entities looked up by name, paged."""

from typing import Any

from fastapi.testclient import TestClient

from tests.support.entity_http import (
    candidates,
    entity,
    entity_count,
    named,
    see_all,
    snapshot,
)

# --- dry run -----------------------------------------------------------------------------------


def test_the_dry_run_answers_a_typo_and_writes_nothing(client: TestClient) -> None:
    k8s = see_all(client, "tool", "Kubernetes")[0]["entity"]
    before = snapshot(client)
    response = client.post("/api/resolve", json={"name": "Kubernets", "kind": "tool"})
    assert response.status_code == 200
    body = response.json()
    assert (body["decision"], body["rule"], body["confidence"]) == ("same", "typo", 0.9)
    assert (body["entity"]["id"], body["entity"]["aliases"]) == (k8s["id"], [])
    assert body["possibly_same_as"] == []
    assert body["evidence"]["rule"] == "typo"
    assert named(client, "Kubernets") == []
    assert entity(client, k8s["id"])["aliases"] == []
    assert snapshot(client) == before


def test_the_dry_run_of_a_new_name_creates_nothing(client: TestClient) -> None:
    maria = see_all(client, "person", "Maria")[0]["entity"]
    count = entity_count(client)
    body = client.post("/api/resolve", json={"name": "Mario", "kind": "person"}).json()
    assert (body["decision"], body["rule"], body["entity"]) == ("new", "new", None)
    [link] = body["possibly_same_as"]
    assert (link["entity"]["id"], link["similarity"], link["distance"], link["reason"]) == (
        maria["id"],
        0.8,
        1,
        "one_edit_short_key",
    )
    assert named(client, "Mario") == []
    assert entity_count(client) == count
    assert candidates(client, maria["id"]) == []


# --- paging ------------------------------------------------------------------------------------


def test_entities_by_name_are_paged_by_id_and_filtered_by_kind(client: TestClient) -> None:
    kinds = ["person", "tool", "place", "ship"]
    ids = sorted(see_all(client, kind, "Ada")[0]["entity"]["id"] for kind in kinds)
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"name": "ADA", "limit": 2}
        if cursor:
            params["cursor"] = cursor
        page = client.get("/api/entities", params=params).json()
        seen += [e["id"] for e in page["entities"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == ids
    assert [e["kind"] for e in named(client, "ada", kind=" Ship ")] == ["ship"]


def test_entities_by_name_find_aliases(client: TestClient) -> None:
    ada = see_all(client, "person", "Ada Lovelace")[0]["entity"]
    client.post(f"/api/entities/{ada['id']}/aliases", json={"alias": "Countess of Lovelace"})
    found = named(client, "countess-of-lovelace")
    assert [(e["id"], e["key"]) for e in found] == [(ada["id"], "ada lovelace")]
    assert set(found[0]) == {"id", "name", "kind", "key", "aliases", "created_at"}
