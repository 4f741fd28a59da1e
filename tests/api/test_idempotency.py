"""`Idempotency-Key`: a retry replays the first answer; another body with the key is refused."""

from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from tests.support.app import app_store

ROOM = "/api/wings/infra/rooms/ops/drawers"


def test_a_retry_replays_the_first_response(client: TestClient) -> None:
    headers = {"Idempotency-Key": "write-1"}
    first = client.post(ROOM, json={"content": "Deploy notes for Tuesday"}, headers=headers)
    retry = client.post(ROOM, json={"content": "Deploy notes for Tuesday"}, headers=headers)
    assert first.status_code == 201
    assert retry.status_code == 201  # the first status, not the 200 a plain repeat would get
    assert retry.json() == first.json()
    assert retry.headers["idempotent-replayed"] == "true"
    assert len(client.get(ROOM).json()["drawers"]) == 1


def test_the_same_key_with_another_body_is_refused(client: TestClient) -> None:
    headers = {"Idempotency-Key": "write-2"}
    client.post(ROOM, json={"content": "First body"}, headers=headers)
    reused = client.post(ROOM, json={"content": "Second body"}, headers=headers)
    assert reused.status_code == 409
    assert reused.json()["error"]["code"] == "idempotency::key_reused"
    assert [d["content"] for d in client.get(ROOM).json()["drawers"]] == ["First body"]


def test_a_mentions_batch_retried_with_its_key_changes_nothing(client: TestClient) -> None:
    drawer = client.post(ROOM, json={"content": "Ada met Grace"}).json()["drawer"]["id"]
    batch = {"mentions": [{"drawer": drawer, "name": "Ada Lovelace", "kind": "person"}]}
    headers = {"Idempotency-Key": "batch-1"}
    first = client.post("/api/mentions", json=batch, headers=headers).json()
    retry = client.post("/api/mentions", json=batch, headers=headers).json()
    assert retry == first
    assert first["results"][0]["created"] is True
    found = client.get("/api/entities", params={"name": "Ada Lovelace"}).json()["entities"]
    assert [e["id"] for e in found] == [first["results"][0]["entity"]["id"]]


def test_errors_are_replayed_too_but_requests_without_a_key_are_not(client: TestClient) -> None:
    headers = {"Idempotency-Key": "bad-1"}
    first = client.post(ROOM, json={"content": "  "}, headers=headers)
    again = client.post(ROOM, json={"content": "  "}, headers=headers)
    assert (first.status_code, again.status_code) == (400, 400)
    assert again.headers["idempotent-replayed"] == "true"
    plain = client.post(ROOM, json={"content": "no key"})
    assert "idempotent-replayed" not in plain.headers


def test_a_blank_key_is_invalid(client: TestClient) -> None:
    response = client.post(ROOM, json={"content": "x"}, headers={"Idempotency-Key": " "})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "input::invalid"


def test_an_expired_key_is_purged_while_the_service_runs(client: TestClient) -> None:
    """Not only at start: a keyed write a day later finds the old key gone from the graph."""
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    store = app_store(client)
    client.post(ROOM, json={"content": "Old news"}, headers={"Idempotency-Key": "old-1"})
    assert _stored_keys(store) == {"old-1"}
    later = datetime.now(UTC) + timedelta(hours=25)
    previous, runtime.clock = runtime.clock, lambda: later
    try:
        client.post(ROOM, json={"content": "Fresh news"}, headers={"Idempotency-Key": "new-1"})
    finally:
        runtime.clock = previous
    assert _stored_keys(store) == {"new-1"}


def _stored_keys(store: object) -> set[str]:
    rows = store.run_text("MATCH (k:IdempotencyKey) RETURN k.key AS key", {})  # type: ignore[attr-defined]
    return {row["key"] for row in rows}
