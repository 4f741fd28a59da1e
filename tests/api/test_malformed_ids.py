"""Malformed ids in paths and cursors (design §8.1): a NUL, a control character or a lone
surrogate is `400 input::invalid` on every route that takes an id or a cursor, never a 500.

The routes are read from the app itself, so a route added later is covered without a change
here; the other ids of a route are a real drawer's, so nothing else stops the request first.
"""

import itertools
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from castlegraph.api.http.app import create_app
from castlegraph.graph.cursors import encode_cursor
from tests.support.app import app_settings, assert_envelope

MALFORMED = ["abc\x00def", "\x00", "a\x01b", "tab\tid", "\x7f", "a\u0085b"]
PATH_PARAMETER = re.compile(r"\{(\w+)\}")
NAMED_PATH_PARTS = frozenset({"wing", "room"})
"""Path parameters that are names with their own check (`palace::invalid_path`), not ids."""


def _id_routes() -> list[tuple[str, str, str]]:
    """(method, path template, id parameter) for every id parameter of every API route."""
    app = create_app(app_settings(Path("never-started")))  # its schema only: no database
    found = []
    for path, operations in app.openapi()["paths"].items():
        for name in PATH_PARAMETER.findall(path):
            if name not in NAMED_PATH_PARTS:
                found += [(method.upper(), path, name) for method in sorted(operations)]
    return found


ID_ROUTES = _id_routes()


def test_every_path_parameter_is_an_id_or_a_checked_name() -> None:
    """The shared check (`api.http.deps.check_path_ids`) knows ids by their `_id` ending."""
    assert ID_ROUTES, "no route takes an id"
    assert all(name.endswith("_id") for _, _, name in ID_ROUTES)
    assert {name for _, _, name in ID_ROUTES} >= {"drawer_id", "entity_id", "job_id", "other_id"}


def _drawer(client: TestClient) -> str:
    response = client.post("/api/wings/w/rooms/r/drawers", json={"content": "a real drawer"})
    assert response.status_code == 201
    drawer_id: str = response.json()["drawer"]["id"]
    return drawer_id


@pytest.mark.parametrize(("method", "template", "name"), ID_ROUTES)
def test_a_malformed_path_id_is_400(
    client: TestClient, method: str, template: str, name: str
) -> None:
    real = _drawer(client)
    for value in MALFORMED:
        path = template
        for parameter in PATH_PARAMETER.findall(template):
            given = value if parameter == name else real
            path = path.replace(f"{{{parameter}}}", quote(given, safe=""))
        response = client.request(method, path, json={})
        assert response.status_code == 400, (value, response.text)
        assert_envelope(response.json(), "input::invalid")
        assert response.json()["error"]["details"] == {"field": name}
    assert client.get(f"/api/drawers/{real}").status_code == 200  # nothing was deleted


CURSOR_ROUTES = [
    ("/api/wings/w/rooms/r/drawers", 2),
    ("/api/entities?name=Ada", 1),
]
MALFORMED_KEYS = ["\x00", "a\x00b", "\ud800", "x\udfffy", "\x1b[0m"]


@pytest.mark.parametrize(("route", "parts"), CURSOR_ROUTES)
def test_a_cursor_holding_a_malformed_key_is_400(
    client: TestClient, route: str, parts: int
) -> None:
    _drawer(client)
    for key, position in itertools.product(MALFORMED_KEYS, range(parts)):
        crafted = ["2026-01-01T00:00:00Z"] * parts
        crafted[position] = key
        cursor = encode_cursor(*crafted)
        separator = "&" if "?" in route else "?"
        response = client.get(f"{route}{separator}cursor={quote(cursor)}")
        assert response.status_code == 400, response.text
        assert_envelope(response.json(), "input::invalid")
        assert response.json()["error"]["details"] == {"cursor": cursor}
