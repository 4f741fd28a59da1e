"""Bearer tokens: required everywhere but health when set; agent tokens keep diaries private."""

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from castlegraph.api.http.app import create_app
from castlegraph.api.http.statuses import RETRY_AFTER_SECONDS
from tests.support.app import app_settings, assert_envelope, running_app, wiped
from tests.support.mcp import INITIALIZE, MCP_HEADERS

ADMIN = {"Authorization": "Bearer admin-secret"}
ADA = {"Authorization": "Bearer ada-secret"}
BOB = {"Authorization": "Bearer bob-secret"}
COLON = {"Authorization": "Bearer ops:colon-secret"}
"""An operator token whose secret holds a `:`, configured in the explicit form `:SECRET`."""


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory, mine_root: Path) -> Iterator[TestClient]:
    tokens = ["admin-secret", "ada:ada-secret", "bob:bob-secret", ":ops:colon-secret"]
    api = {"tokens": tokens, "mine_roots": [mine_root]}
    settings = app_settings(tmp_path_factory.mktemp("auth"), api=api)
    with running_app(settings) as client:
        yield client


@pytest.fixture
def client(secured: TestClient) -> TestClient:
    return wiped(secured)


def test_health_needs_no_token(client: TestClient) -> None:
    assert client.get("/api/health").status_code == 200


STRANGERS = [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic admin-secret"}]


@pytest.mark.parametrize("headers", STRANGERS)
def test_health_tells_a_stranger_only_the_status(
    client: TestClient, headers: dict[str, str]
) -> None:
    """design §8.1: the backend's address and data directory are not a stranger's business."""
    response = client.get("/api/health", headers=headers)
    assert (response.status_code, response.json()) == (200, {"status": "ok"})
    data_dir = str(client.app.state.runtime.settings.graph.data_dir)  # type: ignore[attr-defined]
    assert data_dir not in response.text


@pytest.mark.parametrize("headers", [ADMIN, ADA])
def test_health_tells_a_caller_with_a_token_everything(
    client: TestClient, headers: dict[str, str]
) -> None:
    body = client.get("/api/health", headers=headers).json()
    data_dir = str(client.app.state.runtime.settings.graph.data_dir)  # type: ignore[attr-defined]
    assert body["status"] == "ok" and data_dir in body["backend"]
    assert (body["entity_index"], body["drawer_index"]) == ("ready", "ready")


def test_a_starting_service_tells_a_stranger_only_that(tmp_path: Path) -> None:
    """Before the database is ready (here: never started) health is 503 for everyone; a
    stranger hears `starting`, a caller with a token the envelope."""
    settings = app_settings(tmp_path, api={"tokens": ["admin-secret"]})
    unstarted = TestClient(create_app(settings))  # not entered: the lifespan never runs
    for headers in STRANGERS:
        response = unstarted.get("/api/health", headers=headers)
        assert (response.status_code, response.json()) == (503, {"status": "starting"})
        assert response.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    response = unstarted.get("/api/health", headers=ADMIN)
    assert response.status_code == 503
    assert_envelope(response.json(), "graph::unavailable")


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer wrong"},
        {"Authorization": "Basic admin-secret"},
        {"Authorization": "Bearer "},
        {"Authorization": "admin-secret"},
    ],
)
def test_every_other_route_needs_a_valid_token(client: TestClient, headers: dict[str, str]) -> None:
    for method, path in [
        ("GET", "/api/jobs"),
        ("POST", "/api/mentions"),
        ("GET", "/docs"),
        ("GET", "/openapi.json"),
        ("POST", "/mcp"),
        ("GET", "/api/drawers/x"),
    ]:
        response = client.request(method, path, headers=headers, json={})
        assert response.status_code == 401, (method, path)
        assert response.json()["error"]["code"] == "auth::unauthorized"
        assert response.headers["www-authenticate"] == "Bearer"


def test_metrics_need_no_token(client: TestClient) -> None:
    assert "castlegraph_" in client.get("/metrics").text


def test_a_valid_token_opens_the_docs_the_schema_and_mcp(client: TestClient) -> None:
    assert client.get("/docs", headers=ADMIN).status_code == 200
    assert client.get("/openapi.json", headers=ADMIN).json()["info"]["title"] == "castlegraph"
    mcp = client.post("/mcp", json=INITIALIZE, headers=ADMIN | MCP_HEADERS)
    assert mcp.json()["result"]["serverInfo"]["name"] == "castlegraph"


def test_a_foreign_host_is_refused_before_the_token_is_read(client: TestClient) -> None:
    response = client.get("/api/jobs", headers=ADMIN | {"Host": "evil.example"})
    assert (response.status_code, response.json()["error"]["code"]) == (403, "auth::forbidden")


def test_a_valid_token_gets_in(client: TestClient) -> None:
    response = client.post("/api/wings/w/rooms/r/drawers", json={"content": "hello"}, headers=ADMIN)
    assert response.status_code == 201


def test_an_agent_token_writes_only_its_own_diary(client: TestClient) -> None:
    own = client.post("/api/diary", json={"agent": "ada", "content": "mine"}, headers=ADA)
    assert own.status_code == 201
    other = client.post("/api/diary", json={"agent": "bob", "content": "not mine"}, headers=ADA)
    assert other.status_code == 403
    assert other.json()["error"]["code"] == "auth::forbidden"


def test_an_agent_token_cannot_forge_a_diary_entry_through_the_drawers_route(
    client: TestClient,
) -> None:
    path = "/api/wings/diary/rooms/diary/drawers"
    forged = client.post(path, json={"content": "x", "kind": "diary", "agent": "bob"}, headers=ADA)
    assert forged.status_code == 403
    assert forged.json()["error"] == {
        "code": "auth::forbidden",
        "message": "this token may only name its own agent",
        "details": {"agent": "bob"},
    }
    unnamed = client.post(path, json={"content": "mine", "kind": "diary"}, headers=ADA)
    assert unnamed.status_code == 201
    assert unnamed.json()["drawer"]["agent"] == "ada"
    listed = client.get(path, headers=BOB).json()["drawers"]
    assert listed == []  # bob sees neither a forged entry nor ada's
    on_behalf = {"content": "y", "kind": "diary", "agent": "bob"}
    by_admin = client.post(path, json=on_behalf, headers=ADMIN)
    assert by_admin.status_code == 201  # a token that names no agent is not confined


def test_an_operator_token_holding_a_colon_is_no_agent_token(client: TestClient) -> None:
    entry = {"content": "for bob", "kind": "diary", "agent": "bob"}
    written = client.post("/api/wings/w/rooms/diary/drawers", json=entry, headers=COLON)
    assert written.status_code == 201, written.text  # an agent token would be 403 here
    assert written.json()["drawer"]["agent"] == "bob"
    tail = {"Authorization": "Bearer colon-secret"}  # what `ops:` as an agent name would leave
    assert client.get("/api/jobs", headers=tail).status_code == 401


def test_an_agent_token_cannot_start_mining(client: TestClient, mine_dir: Path) -> None:
    (mine_dir / "notes.md").write_text("Notes inside the mining root.")
    body = {"path": str(mine_dir), "wing": "docs"}
    refused = client.post("/api/mine", json=body, headers=ADA)
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "auth::forbidden"
    assert refused.json()["error"]["details"] == {"agent": "ada"}
    assert client.get("/api/jobs", headers=ADMIN).json()["jobs"] == []
    accepted = client.post("/api/mine", json=body, headers=ADMIN)
    assert accepted.status_code == 202
    job = accepted.json()["job"]
    deadline = time.monotonic() + 20.0  # the job must end before the next test wipes the graph
    while job["status"] not in ("succeeded", "failed") and time.monotonic() < deadline:
        time.sleep(0.02)
        job = client.get(f"/api/jobs/{job['id']}", headers=ADMIN).json()["job"]
    assert (job["status"], job["result"]["created"]) == ("succeeded", 1)


def test_an_agent_token_cannot_read_another_agents_diary(client: TestClient) -> None:
    bob_entry = client.post("/api/diary", json={"agent": "bob", "content": "bob's"}, headers=BOB)
    ada_entry = client.post("/api/diary", json={"agent": "ada", "content": "ada's"}, headers=ADA)
    bob_id, ada_id = bob_entry.json()["drawer"]["id"], ada_entry.json()["drawer"]["id"]
    assert client.get(f"/api/drawers/{bob_id}", headers=ADA).status_code == 404
    assert client.get(f"/api/drawers/{bob_id}/duplicates", headers=ADA).status_code == 404
    assert (
        client.put(f"/api/drawers/{bob_id}", json={"content": "x"}, headers=ADA).status_code == 404
    )
    assert client.delete(f"/api/drawers/{bob_id}", headers=ADA).status_code == 404
    listed = client.get("/api/wings/diary/rooms/diary/drawers", headers=ADA).json()["drawers"]
    assert [d["id"] for d in listed] == [ada_id]
    everyone = client.get("/api/wings/diary/rooms/diary/drawers", headers=ADMIN).json()["drawers"]
    assert {d["id"] for d in everyone} == {ada_id, bob_id}


def test_idempotency_keys_are_per_caller(client: TestClient) -> None:
    key = {"Idempotency-Key": "same-key"}
    first = client.post(
        "/api/wings/w/rooms/r/drawers", json={"content": "one"}, headers=ADMIN | key
    )
    other = client.post("/api/wings/w/rooms/r/drawers", json={"content": "two"}, headers=BOB | key)
    assert (first.status_code, other.status_code) == (201, 201)


def test_the_same_key_and_body_from_another_caller_is_not_a_replay(client: TestClient) -> None:
    """A key shared by chance must not hand one caller the answer stored for another."""
    key = {"Idempotency-Key": "shared-key"}
    body = {"content": "one note"}
    first = client.post("/api/wings/w/rooms/r/drawers", json=body, headers=ADA | key)
    other = client.post("/api/wings/w/rooms/r/drawers", json=body, headers=BOB | key)
    assert first.status_code == 201
    assert "idempotent-replayed" not in other.headers
    assert other.status_code == 200  # its own answer: the exact copy, found, not created
    assert other.json()["drawer"]["id"] == first.json()["drawer"]["id"]
    retried = client.post("/api/wings/w/rooms/r/drawers", json=body, headers=BOB | key)
    assert retried.headers["idempotent-replayed"] == "true"
    assert (retried.status_code, retried.json()) == (200, other.json())
