"""A blank label, wherever a request carries it, is answered with one envelope: 400
`domain::empty_label`, worded for the request where the route found it, for the label where
the rules did. Pinned whole, message and details included, as clients have always read it."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.entity_http import new_drawer, see_all


def _refusal(client: TestClient, request: str) -> tuple[int, dict[str, Any]]:
    if request == "single mention, blank name":
        drawer = new_drawer(client)
        response = client.post(f"/api/drawers/{drawer}/mentions", json={"name": " ", "kind": "x"})
    elif request == "single mention, blank kind":
        drawer = new_drawer(client)
        response = client.post(f"/api/drawers/{drawer}/mentions", json={"name": "A", "kind": " "})
    elif request == "batch, blank kind at 1":
        drawer = new_drawer(client)
        batch = [{"drawer": drawer, "name": "A", "kind": k} for k in ("person", "\t")]
        response = client.post("/api/mentions", json={"mentions": batch})
    elif request == "resolve, blank kind":
        response = client.post("/api/resolve", json={"name": "Ada", "kind": " "})
    elif request == "find, blank name":
        response = client.get("/api/entities", params={"name": "  "})
    elif request == "find, blank kind":
        response = client.get("/api/entities", params={"name": "Ada", "kind": " "})
    else:
        ada = see_all(client, "person", "Ada Lovelace")[0]["entity"]
        response = client.post(f"/api/entities/{ada['id']}/aliases", json={"alias": " "})
    return response.status_code, response.json()


@pytest.mark.parametrize(
    ("request_", "message", "details"),
    [
        ("single mention, blank name", "the mention's name is blank", {"field": "name"}),
        ("single mention, blank kind", "the mention's kind is blank", {"field": "kind"}),
        ("batch, blank kind at 1", "the mention's kind is blank", {"index": 1, "field": "kind"}),
        ("resolve, blank kind", "the mention's kind is blank", {"field": "kind"}),
        ("find, blank name", "name is blank", {"field": "name"}),
        ("find, blank kind", "kind must not be blank", {"field": "kind"}),
        ("alias", "alias must not be blank", {"field": "alias"}),
    ],
)
def test_a_blank_label_is_answered_as_always(
    client: TestClient, request_: str, message: str, details: dict[str, Any]
) -> None:
    status, body = _refusal(client, request_)
    assert (status, body) == (
        400,
        {"error": {"code": "domain::empty_label", "message": message, "details": details}},
    )
