"""The drawer routes through HTTP against the real app and its embedded database."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.app import assert_envelope

TEXT = "The staging deploy listens on port 8080 behind nginx"
TYPO = "The staging deploy listens on port 8080 behind ngnix"
ROOM = "/api/wings/infra/rooms/ops/drawers"


def post(client: TestClient, body: dict[str, Any], path: str = ROOM) -> tuple[int, Any]:
    response = client.post(path, json=body)
    return response.status_code, response.json()


def test_written_twice_returns_201_then_200_with_the_same_id(client: TestClient) -> None:
    status1, first = post(client, {"content": TEXT})
    status2, second = post(client, {"content": TEXT})
    assert (status1, first["created"]) == (201, True)
    assert (status2, second["created"], second["similar"]) == (200, False, [])
    assert second["drawer"]["id"] == first["drawer"]["id"]


def test_a_typo_copy_is_linked_near_and_visible_from_both_sides(client: TestClient) -> None:
    _, old = post(client, {"content": TEXT})
    status, new = post(client, {"content": TYPO})
    assert status == 201
    old_id, new_id = old["drawer"]["id"], new["drawer"]["id"]
    [entry] = new["similar"]
    assert entry["drawer"] == old_id and entry["kind"] == "near" and entry["side"] == "older"
    expected_signals = {
        "same_hash": False,
        "same_fingerprint": False,
        "similarity": pytest.approx(1 - 1 / len(TEXT)),
        "threshold": 0.9,
    }
    assert entry["signals"] == expected_signals
    from_new = client.get(f"/api/drawers/{new_id}/duplicates").json()
    from_old = client.get(f"/api/drawers/{old_id}/duplicates").json()
    assert from_new["drawer"] == new_id
    assert [(e["drawer"], e["side"]) for e in from_new["similar"]] == [(old_id, "older")]
    assert [(e["drawer"], e["side"]) for e in from_old["similar"]] == [(new_id, "newer")]
    assert from_old["similar"][0]["signals"] == expected_signals


def test_the_same_text_in_another_room_is_stored_with_no_link(client: TestClient) -> None:
    post(client, {"content": TEXT})
    status, other = post(client, {"content": TEXT}, "/api/wings/infra/rooms/dev/drawers")
    assert (status, other["similar"]) == (201, [])


def test_a_superseded_drawer_does_not_block_the_same_text(client: TestClient) -> None:
    _, old = post(client, {"content": TEXT})
    old_id = old["drawer"]["id"]
    replaced = client.put(f"/api/drawers/{old_id}", json={"content": "Moved to port 9090"})
    assert replaced.status_code == 201
    assert replaced.json()["superseded"] == old_id
    assert replaced.json()["drawer"]["supersedes"] == old_id
    assert client.get(f"/api/drawers/{old_id}").json()["valid_to"] is not None
    status, again = post(client, {"content": TEXT})
    assert status == 201 and again["drawer"]["id"] != old_id
    assert again["similar"] == []  # a superseded drawer is never a candidate (design §4)


def test_named_drawers(client: TestClient) -> None:
    status, first = post(client, {"content": TEXT, "name": "nginx"})
    assert status == 201
    status, same = post(client, {"content": TEXT, "name": "nginx"})
    assert (status, same["created"], same["drawer"]["id"]) == (200, False, first["drawer"]["id"])
    status, taken = post(client, {"content": TYPO, "name": "nginx"})
    assert status == 409
    assert_envelope(taken, "palace::drawer_name_taken")
    status, replaced = post(client, {"content": TYPO, "name": "nginx", "supersede": True})
    assert status == 201 and replaced["superseded"] == first["drawer"]["id"]
    assert replaced["drawer"]["name"] == "nginx"


def test_put_keeps_the_name_and_a_closed_drawer_cannot_be_superseded_again(
    client: TestClient,
) -> None:
    _, first = post(client, {"content": TEXT, "name": "nginx"})
    drawer_id = first["drawer"]["id"]
    response = client.put(f"/api/drawers/{drawer_id}", json={"content": TYPO})
    assert response.status_code == 201
    assert response.json()["drawer"]["name"] == "nginx"
    again = client.put(f"/api/drawers/{drawer_id}", json={"content": "other"})
    assert again.status_code == 409
    assert_envelope(again.json(), "palace::drawer_superseded")


def test_diary_is_compared_per_agent(client: TestClient) -> None:
    status, first = post(client, {"agent": "ada", "content": TEXT}, "/api/diary")
    assert (
        status == 201 and first["drawer"]["room"] == "diary" and first["drawer"]["wing"] == "diary"
    )
    status, again = post(client, {"agent": "ada", "content": TEXT}, "/api/diary")
    assert (status, again["drawer"]["id"]) == (200, first["drawer"]["id"])
    status, bob = post(client, {"agent": "bob", "content": TEXT}, "/api/diary")
    assert (status, bob["similar"]) == (201, [])


def test_delete_removes_the_drawer_and_undoes_its_links(client: TestClient) -> None:
    _, old = post(client, {"content": TEXT})
    _, new = post(client, {"content": TYPO})
    assert client.delete(f"/api/drawers/{new['drawer']['id']}").status_code == 204
    assert client.get(f"/api/drawers/{old['drawer']['id']}/duplicates").json()["similar"] == []
    missing = client.get(f"/api/drawers/{new['drawer']['id']}")
    assert missing.status_code == 404
    assert_envelope(missing.json(), "palace::drawer_not_found")


def test_delete_similar_removes_one_link(client: TestClient) -> None:
    _, old = post(client, {"content": TEXT})
    _, new = post(client, {"content": TYPO})
    old_id, new_id = old["drawer"]["id"], new["drawer"]["id"]
    assert client.delete(f"/api/drawers/{old_id}/similar/{new_id}").status_code == 204
    assert client.get(f"/api/drawers/{new_id}/duplicates").json()["similar"] == []
    assert client.get(f"/api/drawers/{new_id}").status_code == 200


def test_room_listing_is_paginated_oldest_first(client: TestClient) -> None:
    ids = [
        post(client, {"content": f"note {i} about the deploy"})[1]["drawer"]["id"] for i in range(5)
    ]
    first = client.get(ROOM, params={"limit": 2}).json()
    assert [d["id"] for d in first["drawers"]] == ids[:2]
    rest: list[str] = []
    cursor = first["next_cursor"]
    while cursor:
        page = client.get(ROOM, params={"limit": 2, "cursor": cursor}).json()
        rest += [d["id"] for d in page["drawers"]]
        cursor = page["next_cursor"]
    assert rest == ids[2:]
    bad = client.get(ROOM, params={"cursor": "not-a-cursor"})
    assert bad.status_code == 400
    assert_envelope(bad.json(), "input::invalid")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"content": ""}, 400, "input::invalid"),
        ({"content": " \n\t "}, 400, "input::invalid"),
        ({"content": "x" * (1024 * 1024 + 1)}, 413, "payload::too_large"),
        ({"content": "ok", "name": "n" * 201}, 422, "input::invalid"),
        ({"content": "ok", "kind": "nope"}, 422, "input::invalid"),
        ({"content": "ok", "unknown": 1}, 422, "input::invalid"),
        ({}, 422, "input::invalid"),
    ],
)
def test_bad_input_gets_the_envelope_and_writes_nothing(
    client: TestClient, body: dict[str, Any], status: int, code: str
) -> None:
    response = client.post(ROOM, json=body)
    assert response.status_code == status
    assert_envelope(response.json(), code)
    assert client.get(ROOM).json()["drawers"] == []


def test_invalid_json_and_oversized_bodies(client: TestClient) -> None:
    response = client.post(ROOM, content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert_envelope(response.json(), "input::invalid")
    huge = client.post(
        ROOM, content=b"x" * (9 * 1024 * 1024), headers={"content-type": "application/json"}
    )
    assert huge.status_code == 413
    assert_envelope(huge.json(), "payload::too_large")


def test_invalid_wing_or_room(client: TestClient) -> None:
    response = client.post("/api/wings/%20/rooms/ops/drawers", json={"content": TEXT})
    assert response.status_code == 400
    assert_envelope(response.json(), "palace::invalid_path")


def test_unknown_drawer_routes(client: TestClient) -> None:
    routes = [
        ("GET", "/api/drawers/nope"),
        ("GET", "/api/drawers/nope/duplicates"),
        ("DELETE", "/api/drawers/nope"),
        ("PUT", "/api/drawers/nope"),
    ]
    for method, path in routes:
        response = client.request(method, path, json={"content": "x"} if method == "PUT" else None)
        assert response.status_code == 404, path
        assert_envelope(response.json(), "palace::drawer_not_found")


def test_health_and_docs(client: TestClient) -> None:
    health = client.get("/api/health")
    assert health.status_code == 200 and health.json()["status"] == "ok"
    assert health.json()["entity_index"] == "ready"  # the test app waits for it
    assert health.json()["drawer_index"] == "ready"
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/wings/{wing}/rooms/{room}/drawers" in paths


@pytest.mark.parametrize("field", ["name", "agent", "source_uri"])
def test_a_nul_in_a_drawers_text_field_is_refused_and_nothing_stored(
    client: TestClient, field: str
) -> None:
    """FalkorDB ends a string at a NUL, so the statement arrived cut and failed (a 500 the
    fuzzer found on `source_uri`): every text field of a drawer is refused like a label."""
    status, body = post(client, {"content": "a drawer with a bad field", field: "a\u0000b"})
    assert status == 422, body
    assert_envelope(body, "input::invalid")
    assert body["error"]["details"][0]["loc"] == ["body", field]
    listed = client.get(ROOM).json()
    assert listed["drawers"] == []
