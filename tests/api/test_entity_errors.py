"""Refusals of the entity routes: what is refused, with which status and error code, and that a
refused request writes nothing."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.app import assert_envelope
from tests.support.entity_http import (
    entity,
    entity_count,
    named,
    new_drawer,
    post_batch,
    see,
    see_all,
)


def test_a_batch_with_an_unknown_drawer_is_refused_whole(client: TestClient) -> None:
    drawer = new_drawer(client)
    response = client.post(
        "/api/mentions",
        json={
            "mentions": [
                {"drawer": drawer, "name": "Ada Lovelace", "kind": "person"},
                {"drawer": "no-such-drawer", "name": "Grace Hopper", "kind": "person"},
            ]
        },
    )
    assert response.status_code == 422
    body = response.json()
    assert_envelope(body, "input::invalid")
    assert [d["index"] for d in body["error"]["details"]] == [1]
    assert body["error"]["details"][0]["drawer"] == "no-such-drawer"
    assert entity_count(client) == 0
    assert named(client, "Ada Lovelace") == []


@pytest.mark.parametrize(("field", "index"), [("name", 1), ("kind", 2)])
def test_a_blank_name_or_kind_is_an_empty_label(client: TestClient, field: str, index: int) -> None:
    drawer = new_drawer(client)
    batch = [{"drawer": drawer, "name": f"Name {i}", "kind": "person"} for i in range(3)]
    batch[index][field] = " \t "
    response = client.post("/api/mentions", json={"mentions": batch})
    assert response.status_code == 400
    body = response.json()
    assert_envelope(body, "domain::empty_label")
    assert body["error"]["details"] == {"index": index, "field": field}
    assert body["error"]["message"] == f"the mention's {field} is blank"
    assert entity_count(client) == 0


def test_a_blank_name_on_the_single_mention_route(client: TestClient) -> None:
    response = client.post(
        f"/api/drawers/{new_drawer(client)}/mentions", json={"name": "", "kind": "x"}
    )
    assert response.status_code == 400
    assert_envelope(response.json(), "domain::empty_label")
    assert response.json()["error"]["details"] == {"field": "name"}
    assert entity_count(client) == 0


def test_a_batch_over_the_maximum_is_too_large(client: TestClient) -> None:
    drawer = new_drawer(client)
    batch = [{"drawer": drawer, "name": f"Name {i}", "kind": "person"} for i in range(1001)]
    response = client.post("/api/mentions", json={"mentions": batch})
    assert response.status_code == 413
    assert_envelope(response.json(), "payload::too_large")
    assert entity_count(client) == 0


def test_a_batch_of_exactly_the_maximum_is_accepted(client: TestClient) -> None:
    drawer = new_drawer(client)
    batch = [{"drawer": drawer, "name": f"Name {i}", "kind": "person"} for i in range(1000)]
    results = post_batch(client, batch)
    assert sum(r["created"] for r in results) == 1000
    assert entity_count(client) == 1000


@pytest.mark.parametrize(
    "overrides",
    [
        {"name": "n" * 201},
        {"kind": "k" * 201},
        {"unknown": 1},
        {"origin": {"Bad-Key": 1}},
        {"origin": {"nested": {"a": 1}}},
    ],
)
def test_invalid_mentions_are_422_and_write_nothing(
    client: TestClient, overrides: dict[str, Any]
) -> None:
    drawer = new_drawer(client)
    batch = [
        {"drawer": drawer, "name": "Ada Lovelace", "kind": "person"},
        {"drawer": drawer, "name": "Grace Hopper", "kind": "person", **overrides},
    ]
    response = client.post("/api/mentions", json={"mentions": batch})
    assert response.status_code == 422
    body = response.json()
    assert_envelope(body, "input::invalid")
    assert any(1 in d["loc"] for d in body["error"]["details"])
    assert entity_count(client) == 0


def test_a_name_of_200_characters_is_accepted(client: TestClient) -> None:
    result = see(client, new_drawer(client), "n" * 200, "person")
    assert result["created"] is True


def test_unknown_drawer_on_the_single_mention_route(client: TestClient) -> None:
    response = client.post("/api/drawers/nope/mentions", json={"name": "Ada", "kind": "person"})
    assert response.status_code == 404
    assert_envelope(response.json(), "palace::drawer_not_found")
    assert entity_count(client) == 0


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/api/entities/nope", None),
        ("GET", "/api/entities/nope/mentions", None),
        ("GET", "/api/entities/nope/candidates", None),
        ("POST", "/api/entities/nope/aliases", {"alias": "Ada"}),
        ("POST", "/api/entities/nope/aliases", {"alias": "   "}),
        ("POST", "/api/entities/nope/candidates/other", {"verdict": "same"}),
    ],
)
def test_unknown_entity_routes(
    client: TestClient, method: str, path: str, body: dict[str, Any] | None
) -> None:
    response = client.request(method, path, json=body)
    assert response.status_code == 404, path
    assert_envelope(response.json(), "graph::entity_not_found")


def test_a_blank_alias_is_an_empty_label(client: TestClient) -> None:
    ada = see_all(client, "person", "Ada Lovelace")[0]["entity"]
    response = client.post(f"/api/entities/{ada['id']}/aliases", json={"alias": " "})
    assert response.status_code == 400
    assert_envelope(response.json(), "domain::empty_label")
    assert entity(client, ada["id"])["aliases"] == []


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/api/mentions", {"mentions": [{"name": "Ada\u0000Lovelace", "kind": "person"}]}),
        ("POST", "/api/mentions", {"mentions": [{"name": "Ada", "kind": "per\u0000son"}]}),
        ("POST", "/api/resolve", {"name": "Ada\u0000Lovelace", "kind": "person"}),
        ("GET", "/api/entities?name=Ada%00Lovelace", None),
    ],
)
def test_a_nul_character_is_refused(
    client: TestClient, method: str, path: str, body: dict[str, Any] | None
) -> None:
    """design §7: control characters in a label are refused (422 input::invalid), never a 500,
    never stored."""
    if body and "mentions" in body:
        body["mentions"][0]["drawer"] = new_drawer(client)
    response = client.request(method, path, json=body)
    assert response.status_code == 422, response.text
    assert_envelope(response.json(), "input::invalid")
    assert entity_count(client) == 0


def test_a_nul_character_in_an_alias_is_refused(client: TestClient) -> None:
    ada = see_all(client, "person", "Ada Lovelace")[0]["entity"]
    response = client.post(f"/api/entities/{ada['id']}/aliases", json={"alias": "Ada\u0000L"})
    assert response.status_code == 422, response.text
    assert_envelope(response.json(), "input::invalid")
    assert entity(client, ada["id"])["aliases"] == []


@pytest.mark.parametrize("cursor", ["not-a-cursor", "%%%"])
def test_a_cursor_the_service_never_returned_is_refused(client: TestClient, cursor: str) -> None:
    see_all(client, "person", "Ada")
    response = client.get("/api/entities", params={"name": "ada", "cursor": cursor})
    assert response.status_code == 400
    assert_envelope(response.json(), "input::invalid")


def test_bad_lookups_and_dry_runs(client: TestClient) -> None:
    blank = client.get("/api/entities", params={"name": "  "})
    assert blank.status_code == 400
    assert_envelope(blank.json(), "domain::empty_label")
    resolve = client.post("/api/resolve", json={"name": "Ada", "kind": " "})
    assert resolve.status_code == 400
    assert_envelope(resolve.json(), "domain::empty_label")
    long_name = client.post("/api/resolve", json={"name": "n" * 201, "kind": "person"})
    assert long_name.status_code == 422
    assert_envelope(long_name.json(), "input::invalid")
