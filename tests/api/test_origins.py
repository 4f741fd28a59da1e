"""design §8.1: a state-changing request from a page of another origin is refused (403).

A page elsewhere can make a browser POST to the service without reading the answer; its
`Origin` says where it came from. TestClient sends `Host: testserver` over `http`, so the
request's own origin here is `http://testserver`.
"""

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.support.app import app_settings, assert_envelope, running_app
from tests.support.mcp import INITIALIZE, MCP_HEADERS

ROOM = "/api/wings/w/rooms/r/drawers"
FOREIGN = [
    "http://evil.example",
    "null",  # a sandboxed frame or a file
    "http://testserver:8080",  # another port of the same host
    "https://testserver",  # another scheme
    "http://localhost",  # a loopback name, but not the one the request was sent to
    "http://testserver/path",  # not an origin at all
]
STATE_CHANGING = [
    ("POST", ROOM),
    ("PUT", "/api/drawers/d-1"),
    ("DELETE", "/api/drawers/d-1"),
    ("PATCH", "/api/drawers/d-1"),
    ("POST", "/api/duplicates/verdicts"),
    ("POST", "/mcp"),
]


def _drawers(client: TestClient) -> list[object]:
    drawers: list[object] = client.get(ROOM).json()["drawers"]
    return drawers


@pytest.mark.parametrize("origin", FOREIGN)
def test_a_foreign_origin_may_not_change_anything(client: TestClient, origin: str) -> None:
    for method, path in STATE_CHANGING:
        headers = MCP_HEADERS | {"Origin": origin}
        response = client.request(method, path, headers=headers, json={"content": "not written"})
        assert response.status_code == 403, (method, path, response.text)
        assert_envelope(response.json(), "auth::forbidden")
        assert "CASTLEGRAPH_ALLOWED_ORIGINS" in response.json()["error"]["message"]
        assert response.json()["error"]["details"] == {"origin": origin}
    assert _drawers(client) == []  # the refused write never reached the graph


def test_the_own_origin_may_write(client: TestClient) -> None:
    """As a browser spells it on every route; spelt otherwise, the same origin on the API."""
    own = {"Origin": "http://testserver"}
    assert client.post(ROOM, json={"content": "written"}, headers=own).status_code == 201
    mcp = client.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS | own)
    assert mcp.status_code == 200, mcp.text
    for spelling in ("HTTP://TestServer:80", "http://testserver/"):
        response = client.post(ROOM, json={"content": spelling}, headers={"Origin": spelling})
        assert response.status_code == 201, response.text


def test_reads_and_requests_without_origin_are_not_judged(client: TestClient) -> None:
    read = client.get(ROOM, headers={"Origin": "http://evil.example"})
    assert (read.status_code, read.json()["drawers"]) == (200, [])
    assert client.post(ROOM, json={"content": "from curl"}).status_code == 201


@pytest.fixture(scope="module")
def curated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    api = {"allowed_origins": ["https://curator.example"]}
    with running_app(app_settings(tmp_path_factory.mktemp("origins"), api=api)) as client:
        yield client


def test_an_allowed_origin_may_write_everywhere_mcp_included(curated: TestClient) -> None:
    origin = {"Origin": "https://curator.example"}
    response = curated.post(ROOM, json={"content": "from the curator's page"}, headers=origin)
    assert response.status_code == 201, response.text
    mcp = curated.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS | origin)
    assert mcp.status_code == 200, mcp.text
    other = curated.post(ROOM, json={"content": "x"}, headers={"Origin": "https://other.example"})
    assert other.status_code == 403
