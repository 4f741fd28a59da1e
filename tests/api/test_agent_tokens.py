"""Agent tokens act only as their agent, on every route (design §8.1), on every backend.

Bob's diary entries do not exist for ada's token: no write of hers is compared with them, no
listing, link, page cursor, mention, embedding, duplicate pair or count shows them, and by id
they answer as an unknown id does. A token that names no agent (admin) sees everything.
"""

import base64
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from castlegraph.graph.cursors import encode_cursor
from tests.api.conftest import BACKENDS
from tests.support.app import app_settings, assert_envelope, backend_graph, running_app, wiped
from tests.support.mcp import MCP_HEADERS

ADMIN = {"Authorization": "Bearer admin-secret"}
ADA = {"Authorization": "Bearer ada-secret"}
BOB = {"Authorization": "Bearer bob-secret"}
DIARY_ROOM = "/api/wings/diary/rooms/diary/drawers"
SECRET = "The staging cluster restarts every night at two"
TYPO = "The stagign cluster restarts every night at two"  # a near copy (one swap)
MISSING = "00000000-0000-4000-8000-000000000000"
# Vectors are 4-d like tests/api/test_duplicates.py's: Neo4j keeps a vector index (and its
# dimension) across the wipes between tests, and the session's apps share one Neo4j.


@pytest.fixture(scope="module", params=BACKENDS)
def secured(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, mine_root: Path
) -> Iterator[TestClient]:
    graph = backend_graph(request)
    tokens = ["admin-secret", "ada:ada-secret", "bob:bob-secret"]
    api = {"tokens": tokens, "mine_roots": [mine_root]}
    settings = app_settings(tmp_path_factory.mktemp("agents"), graph=graph, api=api)
    with running_app(settings) as client:
        yield client


@pytest.fixture
def client(secured: TestClient) -> TestClient:
    return wiped(secured)


def bobs_entry(client: TestClient, content: str = SECRET, **fields: Any) -> str:
    body = {"content": content, "kind": "diary", **fields}
    written = client.post(DIARY_ROOM, json=body, headers=BOB)
    assert written.status_code == 201, written.text
    assert written.json()["drawer"]["agent"] == "bob"
    return str(written.json()["drawer"]["id"])


def admins_copy(client: TestClient, content: str = TYPO) -> str:
    """A drawer the admin writes beside bob's entry: linked to it, seen by everyone."""
    written = client.post(DIARY_ROOM, json={"content": content}, headers=ADMIN)
    assert written.status_code == 201, written.text
    return str(written.json()["drawer"]["id"])


def seen(client: TestClient, drawer_id: str, headers: dict[str, str]) -> list[str]:
    answer = client.get(f"/api/drawers/{drawer_id}/duplicates", headers=headers)
    assert answer.status_code == 200, answer.text
    return [entry["drawer"] for entry in answer.json()["similar"]]


# --- 1. a write is never compared with another agent's entry ---------------------------------


ADA_WRITES = {
    "drawer": (DIARY_ROOM, {}),
    "diary drawer": (DIARY_ROOM, {"kind": "diary"}),
    "diary": ("/api/diary", {"agent": "ada"}),
}


@pytest.mark.parametrize("route", list(ADA_WRITES))
@pytest.mark.parametrize("content", [SECRET, TYPO], ids=["exact", "near"])
def test_a_write_never_meets_another_agents_entry(
    client: TestClient, route: str, content: str
) -> None:
    bob = bobs_entry(client)
    path, fields = ADA_WRITES[route]
    written = client.post(path, json={"content": content, **fields}, headers=ADA)
    assert written.status_code == 201, written.text
    body = written.json()
    assert (body["created"], body["similar"]) == (True, [])
    assert body["drawer"]["id"] != bob
    assert bob not in written.text
    assert seen(client, body["drawer"]["id"], ADMIN) == []  # no link at all, not just hidden


def test_a_name_held_by_another_agents_entry_is_taken_without_naming_it(
    client: TestClient,
) -> None:
    bob = bobs_entry(client, name="plan")
    for content, supersede in ((SECRET, False), ("other words", False), ("other", True)):
        body = {"content": content, "name": "plan", "supersede": supersede}
        refused = client.post(DIARY_ROOM, json=body, headers=ADA)
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"]["details"] == {
            "wing": "diary",
            "room": "diary",
            "name": "plan",
        }
    assert client.get(f"/api/drawers/{bob}", headers=BOB).json()["valid_to"] is None
    admin = client.post(DIARY_ROOM, json={"content": "x", "name": "plan"}, headers=ADMIN)
    assert admin.json()["error"]["details"]["drawer"] == bob


def test_links_to_another_agents_entry_are_not_listed(client: TestClient) -> None:
    bob = bobs_entry(client)
    copy = admins_copy(client)
    assert seen(client, copy, ADMIN) == [bob]
    assert seen(client, copy, BOB) == [bob]
    assert seen(client, copy, ADA) == []


def test_a_checkpoint_counts_no_copy_of_another_agents_entry(client: TestClient) -> None:
    bobs_entry(client)
    body = {"wing": "diary", "room": "diary", "items": [{"content": SECRET}]}
    accepted = client.post("/api/checkpoints", json=body, headers=ADA)
    assert accepted.status_code == 202, accepted.text
    job = accepted.json()["job"]
    deadline = time.monotonic() + 20.0
    while job["status"] not in ("succeeded", "failed") and time.monotonic() < deadline:
        time.sleep(0.02)
        job = client.get(f"/api/jobs/{job['id']}", headers=ADA).json()["job"]
    assert job["status"] == "succeeded"
    assert (job["result"]["stored"], job["result"]["duplicates"]) == (1, 0)


# --- 2. paging ---------------------------------------------------------------------------------


def _decoded(cursor: str) -> list[str]:
    decoded: list[str] = json.loads(base64.urlsafe_b64decode(cursor))
    return decoded


def test_pages_are_full_and_cursors_name_only_visible_drawers(client: TestClient) -> None:
    ada: list[str] = []
    for index in range(6):
        if index in (1, 4):
            body = {"agent": "ada", "content": f"ada's entry {index}"}
            ada.append(client.post("/api/diary", json=body, headers=ADA).json()["drawer"]["id"])
        else:
            bobs_entry(client, f"bob's entry number {index}")
    listed, cursor, pages = [], None, 0
    while True:
        params = {"limit": 1} | ({"cursor": cursor} if cursor else {})
        page = client.get(DIARY_ROOM, params=params, headers=ADA).json()
        pages += 1
        assert len(page["drawers"]) == 1, page  # never a short or empty page
        listed += [d["id"] for d in page["drawers"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
        assert _decoded(cursor)[1] in ada
    assert (listed, pages) == (ada, 2)


def test_a_search_finds_no_other_agents_entry(client: TestClient) -> None:
    bobs_entry(client, "bob keeps the staging password")
    body = {"agent": "ada", "content": "ada keeps the staging runbook"}
    mine = client.post("/api/diary", json=body, headers=ADA).json()["drawer"]["id"]
    search = DIARY_ROOM.removesuffix("/drawers") + "/search"
    found = client.get(search, params={"q": "staging keeps"}, headers=ADA).json()
    assert (found["drawers"][0]["id"], len(found["drawers"])) == (mine, 1)
    everyone = client.get(search, params={"q": "staging keeps"}, headers=ADMIN).json()
    assert len(everyone["drawers"]) == 2


def test_a_cursor_at_a_hidden_entry_is_only_a_position(client: TestClient) -> None:
    first = client.post("/api/diary", json={"agent": "ada", "content": "one"}, headers=ADA)
    bob = client.get(f"/api/drawers/{bobs_entry(client)}", headers=BOB).json()
    second = client.post("/api/diary", json={"agent": "ada", "content": "two"}, headers=ADA)
    assert first.status_code == second.status_code == 201
    answers = []
    for drawer_id in (bob["id"], MISSING):
        crafted = encode_cursor(bob["created_at"], drawer_id)
        answer = client.get(DIARY_ROOM, params={"cursor": crafted}, headers=ADA)
        assert answer.status_code == 200, answer.text
        answers.append(answer.json())
    expected = [second.json()["drawer"]["id"]]
    assert [[d["id"] for d in a["drawers"]] for a in answers] == [expected, expected]
    assert answers[0]["next_cursor"] is answers[1]["next_cursor"] is None


# --- 3. every route that names a drawer --------------------------------------------------------


def _not_found(response: Any, drawer_id: str) -> None:
    assert response.status_code == 404, response.text
    assert_envelope(response.json(), "palace::drawer_not_found")
    assert response.json()["error"]["details"] == {"drawer": drawer_id}


def test_by_id_another_agents_entry_answers_as_a_missing_drawer(client: TestClient) -> None:
    bob = bobs_entry(client)
    copy = admins_copy(client)
    for drawer_id in (bob, MISSING):
        _not_found(client.get(f"/api/drawers/{drawer_id}", headers=ADA), drawer_id)
        _not_found(
            client.put(
                f"/api/drawers/{drawer_id}/embedding",
                json={"vector": [1.0, 0.0, 0.0, 0.0]},
                headers=ADA,
            ),
            drawer_id,
        )
        _not_found(
            client.post(
                f"/api/drawers/{drawer_id}/mentions",
                json={"name": "Staging", "kind": "tool"},
                headers=ADA,
            ),
            drawer_id,
        )
        _not_found(
            client.delete(f"/api/drawers/{copy}/similar/{drawer_id}", headers=ADA), drawer_id
        )
        _not_found(
            client.delete(f"/api/drawers/{drawer_id}/similar/{copy}", headers=ADA), drawer_id
        )
        verdict = {"a": copy, "b": drawer_id, "status": "duplicate"}
        _not_found(client.post("/api/duplicates/verdicts", json=verdict, headers=ADA), drawer_id)
    assert seen(client, copy, ADMIN) == [bob]  # the link is still there
    assert client.get(f"/api/drawers/{bob}", headers=ADMIN).json()["id"] == bob
    assert client.get("/api/hygiene", headers=ADMIN).json()["drawers_without_embedding"] == 2


def test_a_mention_batch_refuses_another_agents_entry_as_unknown(client: TestClient) -> None:
    bob = bobs_entry(client)
    answers = [
        client.post(
            "/api/mentions",
            json={"mentions": [{"drawer": drawer_id, "name": "Staging", "kind": "tool"}]},
            headers=ADA,
        )
        for drawer_id in (bob, MISSING)
    ]
    for answer, drawer_id in zip(answers, (bob, MISSING), strict=True):
        assert answer.status_code == 422, answer.text
        assert_envelope(answer.json(), "input::invalid")
        assert drawer_id in answer.text
    bodies = [a.json()["error"] for a in answers]
    assert bodies[0]["message"] == bodies[1]["message"]
    assert client.get("/api/entities", params={"name": "Staging"}, headers=ADMIN).json() == {
        "entities": [],
        "next_cursor": None,
    }


def test_an_entitys_mentions_leave_out_another_agents_entries(client: TestClient) -> None:
    bob = bobs_entry(client)
    mine = client.post("/api/diary", json={"agent": "ada", "content": "ada's"}, headers=ADA)
    ada = mine.json()["drawer"]["id"]
    mention = {"name": "Staging", "kind": "tool"}
    assert client.post(f"/api/drawers/{bob}/mentions", json=mention, headers=BOB).status_code == 201
    assert client.post(f"/api/drawers/{ada}/mentions", json=mention, headers=ADA).status_code == 201
    [entity] = client.get("/api/entities", params={"name": "Staging"}, headers=ADA).json()[
        "entities"
    ]
    path = f"/api/entities/{entity['id']}/mentions"
    assert [m["drawer"] for m in client.get(path, headers=ADA).json()] == [ada]
    assert [m["drawer"] for m in client.get(path, params={"limit": 1}, headers=ADA).json()] == [ada]
    assert {m["drawer"] for m in client.get(path, headers=ADMIN).json()} == {ada, bob}


def test_duplicates_and_hygiene_leave_out_another_agents_entries(client: TestClient) -> None:
    bob = bobs_entry(client)
    copy = admins_copy(client)
    other = client.post(DIARY_ROOM, json={"content": "unembedded"}, headers=ADMIN)
    assert other.status_code == 201
    bobs_entry(client, "bob's unembedded entry")
    for drawer_id, vector in ((bob, [1.0, 0.0, 0.0, 0.0]), (copy, [1.0, 0.05, 0.0, 0.0])):
        stored = client.put(
            f"/api/drawers/{drawer_id}/embedding", json={"vector": vector}, headers=ADMIN
        )
        assert stored.status_code == 200, stored.text
    pair = sorted((bob, copy))
    admin = client.get("/api/duplicates", headers=ADMIN).json()["clusters"]
    assert [[(p["a"], p["b"]) for p in c["pairs"]] for c in admin] == [[tuple(pair)]]
    for params in ({}, {"wing": "diary", "room": "diary"}):
        ada = client.get("/api/duplicates", params=params, headers=ADA).json()
        assert ada["clusters"] == []
    assert client.get("/api/hygiene", headers=ADMIN).json() == {
        "duplicate_pairs_pending": 1,
        "possibly_same_as_pending": 0,
        "drawers_without_embedding": 2,
    }
    assert client.get("/api/hygiene", headers=ADA).json() == {
        "duplicate_pairs_pending": 0,
        "possibly_same_as_pending": 0,
        "drawers_without_embedding": 1,
    }


def _tool(client: TestClient, headers: dict[str, str], name: str, **arguments: Any) -> Any:
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    answer = client.post("/mcp", json=call, headers=headers | MCP_HEADERS)
    assert answer.status_code == 200, answer.text
    return answer.json()["result"]


def test_the_mcp_tools_act_as_the_tokens_agent(client: TestClient) -> None:
    bob = bobs_entry(client)
    copy = admins_copy(client)
    for drawer_id, vector in ((bob, [1.0, 0.0, 0.0, 0.0]), (copy, [1.0, 0.05, 0.0, 0.0])):
        body = {"vector": vector}
        assert client.put(
            f"/api/drawers/{drawer_id}/embedding", json=body, headers=ADMIN
        ).is_success
    assert bob in _tool(client, ADMIN, "find_duplicates")["content"][0]["text"]
    assert bob not in _tool(client, ADA, "find_duplicates")["content"][0]["text"]
    admin_hygiene = _tool(client, ADMIN, "hygiene")["content"][0]["text"]
    ada_hygiene = _tool(client, ADA, "hygiene")["content"][0]["text"]
    assert admin_hygiene.startswith("Waiting for review:\n- 1 duplicate pair")
    assert ada_hygiene.startswith("Nothing waits for review")
    refused = _tool(client, ADA, "dedup_mark_checked", a=copy, b=bob, status="duplicate")
    assert refused["isError"] is True
    assert f"palace::drawer_not_found: no drawer with id {bob!r}" in refused["content"][0]["text"]
    written = _tool(client, ADA, "drawer_write", wing="diary", room="diary", content=SECRET)
    assert [s["drawer"] for s in written["structuredContent"]["similar"]] == [copy]  # not bob's
    assert written["structuredContent"]["created"] is True


# --- 4. an agent names only itself ---------------------------------------------------------------


@pytest.mark.parametrize("kind", ["note", "manual", "checkpoint"])
def test_a_drawer_naming_another_agent_is_forbidden(client: TestClient, kind: str) -> None:
    forged = {"content": SECRET, "kind": kind, "agent": "bob"}
    refused = client.post(DIARY_ROOM, json=forged, headers=ADA)
    assert refused.status_code == 403, refused.text
    assert_envelope(refused.json(), "auth::forbidden")
    assert refused.json()["error"]["details"] == {"agent": "bob"}
    own = client.post(DIARY_ROOM, json=forged | {"agent": "ada"}, headers=ADA)
    assert own.status_code == 201, own.text
    assert client.get(DIARY_ROOM, headers=ADMIN).json()["drawers"] == [own.json()["drawer"]]
    by_admin = client.post("/api/wings/w/rooms/r/drawers", json=forged, headers=ADMIN)
    assert (by_admin.status_code, by_admin.json()["drawer"]["agent"]) == (201, "bob")


def test_a_checkpoint_item_naming_another_agent_is_forbidden_before_a_job_exists(
    client: TestClient,
) -> None:
    items = [{"content": "ada's item", "agent": "ada"}, {"content": SECRET, "agent": "bob"}]
    body = {"wing": "w", "room": "r", "items": items}
    refused = client.post("/api/checkpoints", json=body, headers=ADA)
    assert refused.status_code == 403, refused.text
    assert_envelope(refused.json(), "auth::forbidden")
    assert refused.json()["error"]["details"] == {"agent": "bob"}
    assert client.get("/api/jobs", headers=ADMIN).json()["jobs"] == []
    assert client.post("/api/checkpoints", json=body, headers=ADMIN).status_code == 202


BOB_DIARY = {
    "diary": ("/api/diary", {"agent": "bob"}),
    "diary drawer": (DIARY_ROOM, {"kind": "diary"}),
}


@pytest.mark.parametrize("route", list(BOB_DIARY))
@pytest.mark.parametrize("kind", ["note", "checkpoint"])
@pytest.mark.parametrize("content", [SECRET, TYPO], ids=["exact", "near"])
def test_a_diary_entry_is_never_a_drawer_that_only_names_its_agent(
    client: TestClient, route: str, kind: str, content: str
) -> None:
    """An operator may write a note naming bob; it is no diary entry of bob's, so bob's entry
    of the same words is stored, and compared with his own entries only."""
    note = client.post(
        DIARY_ROOM, json={"content": SECRET, "kind": kind, "agent": "bob"}, headers=ADMIN
    )
    assert note.status_code == 201, note.text
    path, fields = BOB_DIARY[route]
    entry = client.post(path, json={"content": content, **fields}, headers=BOB)
    assert entry.status_code == 201, entry.text
    body = entry.json()
    assert (body["created"], body["similar"]) == (True, [])
    assert (body["drawer"]["kind"], body["drawer"]["agent"]) == ("diary", "bob")
    assert body["drawer"]["id"] != note.json()["drawer"]["id"]
    again = client.post(path, json={"content": content, **fields}, headers=BOB)
    assert (again.status_code, again.json()["drawer"]["id"]) == (200, body["drawer"]["id"])


def test_the_mcp_tools_name_only_the_tokens_agent(client: TestClient) -> None:
    refused = _tool(client, ADA, "diary_write", agent="bob", content=SECRET)
    assert refused["isError"] is True
    assert (
        "auth::forbidden: this token may only name its own agent" in refused["content"][0]["text"]
    )
    written = _tool(
        client, ADA, "drawer_write", wing="diary", room="diary", content=SECRET, kind="diary"
    )
    stored = client.get(f"/api/drawers/{written['structuredContent']['id']}", headers=ADMIN)
    assert stored.json()["agent"] == "ada"
    assert client.get(DIARY_ROOM, headers=BOB).json()["drawers"] == []
