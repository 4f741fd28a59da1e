"""`GET /api/wings/{wing}/rooms/{room}/search`: a room's current drawers holding every word."""

from typing import Any

from fastapi.testclient import TestClient

from tests.support.app import assert_envelope

ROOM = "/api/wings/ops/rooms/deploy"


def written(client: TestClient, content: str, room: str = ROOM) -> str:
    answer = client.post(f"{room}/drawers", json={"content": content})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["drawer"]["id"])


def refused(answer: Any, status: int, code: str) -> Any:
    assert answer.status_code == status, answer.text
    assert_envelope(answer.json(), code)
    return answer.json()["error"]


def search(client: TestClient, q: str, **params: Any) -> Any:
    answer = client.get(f"{ROOM}/search", params={"q": q, **params})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_every_word_must_be_held_in_any_case_and_order(client: TestClient) -> None:
    staging = written(client, "Staging restarts every night at two")
    keys = written(client, "Ada holds the STAGING keys")
    written(client, "Ada restarts nothing", room="/api/wings/ops/rooms/other")
    assert [d["id"] for d in search(client, "staging")["drawers"]] == [staging, keys]
    assert [d["id"] for d in search(client, "KEYS staging")["drawers"]] == [keys]
    assert search(client, "ada restarts") == {"drawers": [], "more": False}  # another room
    found = search(client, "night")["drawers"]
    assert [(d["content"], d["wing"], d["room"]) for d in found] == [
        ("Staging restarts every night at two", "ops", "deploy")
    ]


def test_a_superseded_drawer_is_not_found_but_its_successor_is(client: TestClient) -> None:
    old = written(client, "The deploy runs at nine")
    new = client.put(f"/api/drawers/{old}", json={"content": "The deploy runs at ten"})
    assert new.status_code == 201, new.text
    assert [d["id"] for d in search(client, "deploy")["drawers"]] == [new.json()["drawer"]["id"]]
    assert search(client, "nine")["drawers"] == []


def test_more_says_that_the_limit_cut_the_answer(client: TestClient) -> None:
    ids = [written(client, f"Standup note number {n}") for n in range(3)]
    first = search(client, "standup", limit=2)
    assert ([d["id"] for d in first["drawers"]], first["more"]) == (ids[:2], True)
    assert search(client, "standup", limit=3)["more"] is False


def test_a_search_without_words_or_with_too_many_is_refused(client: TestClient) -> None:
    for q in ("   ", " ".join(f"w{n}" for n in range(9))):
        error = refused(client.get(f"{ROOM}/search", params={"q": q}), 400, "input::invalid")
        assert error["details"] == {"field": "q"}
    refused(client.get(f"{ROOM}/search", params={"q": "a\x00b"}), 422, "input::invalid")
    refused(client.get(f"{ROOM}/search"), 422, "input::invalid")
    refused(
        client.get("/api/wings/ops/rooms/%20/search", params={"q": "x"}),
        400,
        "palace::invalid_path",
    )
