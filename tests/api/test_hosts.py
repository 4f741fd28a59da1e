"""design §8.1: a `Host` that is not the service's own (DNS rebinding) is refused on every route.

The test app allows TestClient's `testserver` the way a deployment allows its proxy's name
(`api.allowed_hosts`); everything else here is what the product allows on its own.
"""

import pytest
from fastapi.testclient import TestClient

from tests.support.app import assert_envelope
from tests.support.mcp import INITIALIZE, MCP_HEADERS

ROUTES = [
    ("GET", "/api/health"),
    ("GET", "/metrics"),
    ("GET", "/docs"),
    ("GET", "/review"),
    ("GET", "/review/assets/review.js"),
    ("GET", "/openapi.json"),
    ("GET", "/api/jobs"),
    ("GET", "/api/hygiene"),
    ("POST", "/api/wings/w/rooms/r/drawers"),
    ("POST", "/mcp"),
    ("GET", "/no/such/route"),
]


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8765", "127.0.0.1.evil.example", "10.1.2.3:8765"]
)
def test_a_foreign_host_is_refused_on_every_route(client: TestClient, host: str) -> None:
    for method, path in ROUTES:
        response = client.request(
            method, path, headers={"Host": host}, json={"content": "not written"}
        )
        assert response.status_code == 403, (method, path)
        assert_envelope(response.json(), "auth::forbidden")
        assert "CASTLEGRAPH_ALLOWED_HOSTS" in response.json()["error"]["message"]
        assert response.json()["error"]["details"] == {"host": host}
    listed = client.get("/api/wings/w/rooms/r/drawers").json()["drawers"]
    assert listed == []  # the refused write never reached the graph


OWN_HOSTS = [
    "localhost",
    "localhost:8765",
    "127.0.0.1:8765",
    "[::1]:8765",
    "LocalHost.",
    "testserver",
]


@pytest.mark.parametrize("host", OWN_HOSTS)
def test_loopback_names_and_the_allowed_names_get_in(client: TestClient, host: str) -> None:
    assert client.get("/api/health", headers={"Host": host}).status_code == 200
    assert client.get("/openapi.json", headers={"Host": host}).json()["info"]["title"] == (
        "castlegraph"
    )


def test_mcp_answers_on_an_allowed_host(client: TestClient) -> None:
    response = client.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS)
    assert response.status_code == 200, response.text
    assert response.json()["result"]["serverInfo"]["name"] == "castlegraph"


def test_mcp_refuses_a_page_of_another_origin(client: TestClient) -> None:
    origin = {"Origin": "http://evil.example"}
    response = client.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS | origin)
    assert response.status_code == 403


@pytest.mark.parametrize("order", [("evil.example", "testserver"), ("testserver", "evil.example")])
def test_two_host_headers_are_refused_on_every_route(
    client: TestClient, order: tuple[str, str]
) -> None:
    """The app judged the last `Host` and the MCP SDK read the first: either way round, one
    allowed name carried the other in. TestClient passes both headers to the app as given."""
    for method, path in ROUTES:
        headers = [("Host", name) for name in order]
        response = client.request(method, path, headers=headers, json={"content": "not written"})
        assert response.status_code == 400, (method, path)
        assert_envelope(response.json(), "input::invalid")
        assert response.json()["error"]["details"] == {"hosts": list(order)}
    listed = client.get("/api/wings/w/rooms/r/drawers").json()["drawers"]
    assert listed == []  # the refused write never reached the graph
