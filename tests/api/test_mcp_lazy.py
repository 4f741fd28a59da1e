"""The app builds the MCP server when `/mcp` is first called, not at start (`api.http.lazy_mcp`):
the SDK held ~32 MB of a started service. That the SDK is not even imported before:
tests/unit/test_footprint.py."""

from fastapi.testclient import TestClient

from castlegraph.api.http.lazy_mcp import MCP_PATH, LazyMcp
from tests.support.mcp import MCP_HEADERS, TOOLS


def _lazy_mcp(client: TestClient) -> LazyMcp:
    [endpoint] = [
        route.endpoint
        for route in client.app.routes  # type: ignore[attr-defined]
        if getattr(route, "path", None) == MCP_PATH
    ]
    assert isinstance(endpoint, LazyMcp)
    return endpoint


def test_the_first_call_builds_the_server_and_later_ones_reuse_it(client: TestClient) -> None:
    lazy = _lazy_mcp(client)
    assert not lazy.built
    assert client.get("/api/health").status_code == 200
    assert not lazy.built  # other routes never build it
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    for _ in range(2):
        answer = client.post("/mcp", json=message, headers=MCP_HEADERS)
        assert answer.status_code == 200, answer.text
        assert {tool["name"] for tool in answer.json()["result"]["tools"]} == TOOLS
        assert lazy.built
