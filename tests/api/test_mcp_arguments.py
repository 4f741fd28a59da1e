"""The MCP tools at `/mcp` refuse what HTTP refuses, and answer writes briefly, on every backend.

The SDK's arguments model would drop an argument a tool does not declare, so `drawer_write
{"agent": "me"}` stored a drawer with no agent where `POST .../drawers` answers 422: each tool
now refuses it, naming it, before anything is written. End to end, with the SDK's client over
stdio and HTTP: tests/e2e/test_mcp_stdio.py and test_mcp_http.py.
"""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.mcp import MCP_HEADERS

ROOM = "/api/wings/ops/rooms/deploy/drawers"


def _call(client: TestClient, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One `tools/call` as plain JSON-RPC; its result."""
    params = {"name": name, "arguments": arguments}
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
    answer = client.post("/mcp", json=message, headers=MCP_HEADERS)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()["result"]
    return result


@pytest.mark.parametrize(
    ("tool", "arguments", "unknown"),
    [
        ("drawer_write", {"wing": "ops", "room": "deploy", "content": "x", "agent": "me"}, "agent"),
        ("drawer_write", {"wing": "ops", "room": "deploy", "content": "x", "ctx": {}}, "ctx"),
        ("diary_write", {"agent": "scout", "content": "x", "room": "deploy"}, "room"),
        ("hygiene", {"verbose": True}, "verbose"),
    ],
)
def test_an_argument_a_tool_does_not_declare_is_refused_and_nothing_is_stored(
    client: TestClient, tool: str, arguments: dict[str, Any], unknown: str
) -> None:
    result = _call(client, tool, arguments)
    assert result["isError"] is True
    [block] = result["content"]
    assert block["text"] == (
        f"Error executing tool {tool}: input::invalid: {unknown}: Extra inputs are not permitted"
    )
    assert client.get(ROOM).json()["drawers"] == []
    assert client.get("/api/wings/diary/rooms/diary/drawers").json()["drawers"] == []


def test_the_listed_schemas_forbid_other_arguments(client: TestClient) -> None:
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    tools = client.post("/mcp", json=message, headers=MCP_HEADERS).json()["result"]["tools"]
    assert {tool["inputSchema"].get("additionalProperties") for tool in tools} == {False}


def test_a_write_answers_its_essentials_and_the_http_answer_when_asked(client: TestClient) -> None:
    note = {"wing": "ops", "room": "deploy", "content": "Staging listens on 8080"}
    first = _call(client, "drawer_write", note)["structuredContent"]
    near = {**note, "content": "staging  listens on 8080", "full": True}
    copy = _call(client, "drawer_write", near)["structuredContent"]
    stored = client.get(f"/api/drawers/{first['id']}").json()
    assert first == {"id": stored["id"], "created": True, "similar": []}
    brief = {key: copy[key] for key in ("created", "similar")}
    assert brief == {
        "created": True,
        "similar": [
            {"drawer": first["id"], "kind": "normalized", "similarity": 1.0, "side": "older"}
        ],
    }
    assert copy["detail"]["drawer"]["content_hash"] != stored["content_hash"]
    assert copy["detail"]["similar"][0]["signals"]["same_fingerprint"] is True
