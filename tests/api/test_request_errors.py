"""A refused request body says what to fix in words an extractor's author can act on: a JSON
body sent without a JSON content type hears which header to send, and a bad value anywhere in
a body (an `origin` value included) is named by its field, without pydantic's internals."""

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.app import assert_envelope
from tests.support.entity_http import new_drawer

INTERNALS = ("function-after", "constrained-str", "function-wrap", "function-plain")
"""Names pydantic gives its validators, which mean nothing to a caller."""


@pytest.mark.parametrize(
    "content_type", [None, "application/x-www-form-urlencoded", "text/plain"], ids=str
)
def test_a_json_body_without_a_json_content_type_hears_which_header_to_send(
    client: TestClient, content_type: str | None
) -> None:
    body = {"mentions": [{"drawer": "d", "name": "Ada Lovelace", "kind": "person"}]}
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.post("/api/mentions", content=json.dumps(body), headers=headers)
    assert "content-type" not in response.request.headers or content_type
    assert response.status_code == 422
    error = response.json()["error"]
    assert_envelope(response.json(), "input::invalid")
    [detail] = error["details"]
    assert detail["loc"] == ["body"]
    assert "Content-Type: application/json" in detail["msg"]
    assert (content_type or "no Content-Type") in detail["msg"]


def test_the_same_body_as_json_is_accepted(client: TestClient) -> None:
    drawer = new_drawer(client)
    body = {"mentions": [{"drawer": drawer, "name": "Ada Lovelace", "kind": "person"}]}
    response = client.post(
        "/api/mentions", content=json.dumps(body), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 200, response.text
    assert response.json()["results"][0]["entity"]["name"] == "Ada Lovelace"


def test_a_body_that_is_not_an_object_hears_no_header_hint(client: TestClient) -> None:
    response = client.post("/api/mentions", json=["not", "an", "object"])
    assert response.status_code == 422
    [detail] = response.json()["error"]["details"]
    assert "Content-Type" not in detail["msg"]


def _details(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 422, response.text
    assert_envelope(response.json(), "input::invalid")
    details: list[dict[str, Any]] = response.json()["error"]["details"]
    return details


def _no_internals(details: list[dict[str, Any]]) -> None:
    text = json.dumps(details)
    assert not [word for word in INTERNALS if word in text], text


def test_a_bad_origin_value_is_named_by_its_key_in_plain_words(client: TestClient) -> None:
    mention = {"drawer": "d", "name": "Ada", "kind": "person", "origin": {"page": "p\x01"}}
    details = _details(client.post("/api/mentions", json={"mentions": [mention]}))
    _no_internals(details)
    assert details == [
        {
            "loc": ["body", "mentions", 0, "origin", "page"],
            "msg": details[0]["msg"],
            "type": "origin_value",
        }
    ]
    assert "plain text" in details[0]["msg"]
    assert "2048 characters" in details[0]["msg"]


@pytest.mark.parametrize(
    "value", ["x" * 2049, "\ud800", None, [1], {"a": 1}, float("inf"), float("nan")], ids=repr
)
def test_every_bad_origin_value_is_one_readable_error(client: TestClient, value: Any) -> None:
    mention = {"name": "Ada", "kind": "person", "origin": {"page": value}}
    body = json.dumps(mention, allow_nan=True)  # `inf` stays `Infinity`, as a client may send
    response = client.post(
        f"/api/drawers/{new_drawer(client)}/mentions",
        content=body,
        headers={"Content-Type": "application/json"},
    )
    details = _details(response)
    _no_internals(details)
    assert [d["loc"] for d in details] == [["body", "origin", "page"]]


BAD_TEXT = "bad\x01text"

BAD_BODIES = [
    ("post", "/api/wings/w/rooms/r/drawers", {"content": "c", "name": BAD_TEXT}),
    ("post", "/api/wings/w/rooms/r/drawers", {"content": "c", "agent": BAD_TEXT}),
    ("post", "/api/wings/w/rooms/r/drawers", {"content": "c", "source_uri": BAD_TEXT}),
    ("post", "/api/wings/w/rooms/r/drawers", {"content": "c", "kind": BAD_TEXT}),
    ("post", "/api/wings/w/rooms/r/drawers", {"content": 1}),
    ("post", "/api/wings/w/rooms/r/drawers", {"content": "c", "supersede": BAD_TEXT}),
    ("post", "/api/diary", {"agent": BAD_TEXT, "content": "c"}),
    ("post", "/api/diary", {"agent": "a", "content": "c", "wing": BAD_TEXT}),
    ("post", "/api/mentions", {"mentions": [{"drawer": BAD_TEXT, "name": "n", "kind": "k"}]}),
    *[
        ("post", "/api/mentions", {"mentions": [{"drawer": "d", "name": "n", "kind": "k", f: v}]})
        for f, v in [
            ("name", BAD_TEXT),
            ("kind", BAD_TEXT),
            ("extractor", BAD_TEXT),
            ("job_id", BAD_TEXT),
            ("extracted_at", BAD_TEXT),
            ("origin", {"page": BAD_TEXT}),
            ("origin", {"Bad Key": 1}),
            ("origin", [1]),
        ]
    ],
    ("post", "/api/resolve", {"name": BAD_TEXT, "kind": "person"}),
    ("post", "/api/entities/e/aliases", {"alias": BAD_TEXT}),
    ("post", "/api/entities/e/candidates/f", {"verdict": BAD_TEXT}),
    ("put", "/api/drawers/d", {"content": ["c"]}),
    ("put", "/api/drawers/d/embedding", {"vector": [BAD_TEXT]}),
    ("post", "/api/duplicates/verdicts", {"a": BAD_TEXT, "b": "b", "status": "duplicate"}),
    ("post", "/api/duplicates/verdicts", {"a": "a", "b": "b", "status": BAD_TEXT}),
    ("post", "/api/checkpoints", {"wing": "w", "room": "r", "items": [{"content": 1}]}),
    ("post", "/api/checkpoints", {"wing": "", "room": "r", "items": []}),
    (
        "post",
        "/api/checkpoints",
        {"wing": "w", "room": "r", "items": [{"content": "c", "destination": {"wing": ""}}]},
    ),
    ("post", "/api/mine", {"path": "", "wing": "w"}),
    ("post", "/api/mine", {"path": "p", "wing": "w", "chunk_chars": BAD_TEXT}),
]


@pytest.mark.parametrize(("method", "url", "body"), BAD_BODIES, ids=lambda v: str(v)[:60])
def test_no_bad_body_field_shows_validator_internals(
    client: TestClient, method: str, url: str, body: dict[str, Any]
) -> None:
    details = _details(client.request(method, url, json=body))
    _no_internals(details)
    assert all(d["loc"][0] == "body" and len(d["loc"]) > 1 for d in details), details
