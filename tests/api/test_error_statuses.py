"""Database errors through the envelope: a lost race is 409, an unreachable database 503, both
with `Retry-After`, and neither shows the driver's own words (host, port, label, value).

The failing call runs in a route added for the test, so the error comes from a real database
(or a real refused connection) and the answer from the app's real handlers.
"""

import socket
from collections.abc import Callable

from fastapi.testclient import TestClient

from castlegraph.api.http.statuses import RETRY_AFTER_SECONDS
from castlegraph.graph.backends.neo4j_store import Neo4jStore
from tests.support.app import app_store, assert_envelope


def _route(client: TestClient, path: str, call: Callable[[], None]) -> None:
    def endpoint() -> dict[str, bool]:
        call()
        return {"ok": True}

    client.app.add_api_route(path, endpoint, methods=["POST"])  # type: ignore[attr-defined]


def test_a_lost_race_for_a_unique_key_is_409_with_retry_after(client: TestClient) -> None:
    store = app_store(client)
    _route(
        client,
        "/_test/create-wing",
        lambda: store.run_text("CREATE (:Wing {name: $name})", {"name": "raced-wing"}),
    )
    assert client.post("/_test/create-wing").status_code == 200
    response = client.post("/_test/create-wing")
    assert response.status_code == 409
    assert_envelope(response.json(), "graph::constraint_violation")
    assert response.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    assert "raced-wing" not in response.text


def test_an_unreachable_database_is_503_with_retry_after_and_no_address(
    client: TestClient,
) -> None:
    with socket.socket() as probe:  # a loopback port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    lost = Neo4jStore(f"bolt://127.0.0.1:{port}", "neo4j", "password", "neo4j")
    try:
        _route(client, "/_test/unreachable", lost.ping)
        response = client.post("/_test/unreachable")
    finally:
        lost.close()
    assert response.status_code == 503
    assert_envelope(response.json(), "graph::unavailable")
    assert response.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    assert str(port) not in response.text
