"""The OpenAPI document tells the truth: every answer a scripted session gets is declared, with a
schema its body matches; operation ids are camelCase; bearer auth and `Idempotency-Key` are
declared where they apply; no route promises a status it cannot give (spot checks).

A generated client (`openapi-python-client`) parses a body only for a status the document
declares with a schema: an undeclared 201 left it `parsed=None` on every successful create.
"""

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response
from jsonschema import Draft202012Validator

from castlegraph.api.http.app import create_app
from castlegraph.api.service.settings import Settings
from tests.api.conftest import BACKENDS
from tests.support.app import app_settings, backend_graph, running_app, wiped

ADMIN = {"Authorization": "Bearer admin-secret"}
TOKENS = ["admin-secret", "ada:ada-secret"]
MAX_BODY = 64 * 1024
DOCUMENT = create_app(Settings(graph={"data_dir": Path("/nonexistent")})).openapi()
OPERATIONS = [
    (path, method, operation)
    for path, operations in DOCUMENT["paths"].items()
    for method, operation in operations.items()
]


def _template(path: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\{[^/]+\}", "[^/]+", path) + "$")


TEMPLATES = [(_template(path), path) for path in DOCUMENT["paths"]]


def declared(method: str, url: str) -> dict[str, Any]:
    """The operation of the document that `method url` runs."""
    path = url.split("?", 1)[0]
    matches = [t for pattern, t in TEMPLATES if pattern.match(path)]
    literal = [t for t in matches if "{" not in t]  # `/api/jobs` before `/api/jobs/{job_id}`
    template = (literal or matches)[0]
    operation: dict[str, Any] = DOCUMENT["paths"][template][method.lower()]
    return operation


def check(response: Response) -> Response:
    """The answer's status is declared for its operation, and its body matches the schema."""
    request = response.request
    operation = declared(request.method, request.url.path)
    status = str(response.status_code)
    where = (request.method, request.url.path, status, response.text[:200])
    assert status in operation["responses"], where
    if response.status_code == 204:
        return response
    content = operation["responses"][status].get("content", {})
    assert "application/json" in content, ("no body schema declared", *where)
    schema = {**content["application/json"]["schema"], "components": DOCUMENT["components"]}
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(response.json())]
    assert errors == [], where
    return response


@pytest.fixture(scope="module", params=BACKENDS)
def secured(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, mine_root: Path
) -> Iterator[TestClient]:
    api = {"tokens": TOKENS, "mine_roots": [mine_root], "max_body_bytes": MAX_BODY}
    graph = backend_graph(request)
    settings = app_settings(tmp_path_factory.mktemp("openapi"), graph=graph, api=api)
    with running_app(settings) as client:
        yield client


@pytest.fixture
def client(secured: TestClient) -> TestClient:
    return wiped(secured)


def call(client: TestClient, method: str, url: str, **kwargs: Any) -> Response:
    headers = {**ADMIN, **kwargs.pop("headers", {})}
    return check(client.request(method, url, headers=headers, **kwargs))


def test_the_answers_of_a_session_are_declared_with_their_schemas(client: TestClient) -> None:
    room = "/api/wings/w/rooms/r/drawers"
    written = call(client, "POST", room, json={"content": "Ada wrote the first program."})
    assert written.status_code == 201
    drawer = written.json()["drawer"]["id"]
    assert (
        call(client, "POST", room, json={"content": "Ada wrote the first program."}).json()[
            "created"
        ]
        is False
    )
    call(client, "POST", room, json={"content": "one", "name": "n"})
    assert call(client, "POST", room, json={"content": "two", "name": "n"}).status_code == 409
    assert call(client, "POST", room, json={}).status_code == 422
    big = {"content": "x" * (MAX_BODY + 1)}
    assert call(client, "POST", room, json=big).status_code == 413
    diary = {"agent": "ada", "content": "today I met Charles"}
    assert call(client, "POST", "/api/diary", json=diary).status_code == 201
    superseded = call(client, "PUT", f"/api/drawers/{drawer}", json={"content": "Ada, again."})
    assert superseded.status_code == 201
    current = superseded.json()["drawer"]["id"]
    call(client, "GET", f"/api/drawers/{current}")
    assert call(client, "GET", "/api/drawers/no-such-drawer").status_code == 404
    call(client, "GET", f"/api/drawers/{current}/duplicates")
    call(client, "GET", f"{room}?limit=10")

    mention = {"name": "Maria", "kind": "person"}
    url = f"/api/drawers/{current}/mentions"
    assert call(client, "POST", url, json=mention).status_code == 201
    assert call(client, "POST", url, json=mention).status_code == 200
    older = call(client, "POST", url, json=mention).json()["entity"]["id"]
    batch = {"mentions": [{"drawer": current, "name": "Mario", "kind": "person"}]}
    [result] = call(client, "POST", "/api/mentions", json=batch).json()["results"]
    newer = result["entity"]["id"]
    blank = {"mentions": [{"drawer": current, "name": " ", "kind": "person"}]}
    assert call(client, "POST", "/api/mentions", json=blank).status_code == 400
    keyed = {"Idempotency-Key": "k1"}
    call(client, "POST", "/api/mentions", json=batch, headers=keyed)
    reused = call(client, "POST", "/api/mentions", json={"mentions": []}, headers=keyed)
    assert reused.status_code == 409
    [candidate] = call(client, "GET", f"/api/entities/{newer}/candidates").json()
    assert candidate["entity"]["id"] == older
    settled = call(
        client, "POST", f"/api/entities/{newer}/candidates/{older}", json={"verdict": "same"}
    )
    assert settled.status_code == 200
    assert call(client, "GET", f"/api/entities/{newer}").json().get("same_as") == older
    call(client, "GET", f"/api/entities/{older}/mentions")
    call(client, "GET", "/api/entities?name=Maria")
    assert call(client, "GET", "/api/entities/no-such-entity").status_code == 404
    call(client, "POST", "/api/resolve", json=mention)

    checkpoint = {"wing": "w", "room": "r", "items": [{"content": "a checkpoint"}]}
    job = call(client, "POST", "/api/checkpoints", json=checkpoint).json()["job"]["id"]
    call(client, "GET", f"/api/jobs/{job}")
    call(client, "GET", "/api/jobs")
    call(client, "POST", f"/api/jobs/{job}/cancel")
    call(client, "GET", "/api/duplicates")
    call(client, "GET", "/api/hygiene")

    assert check(client.get("/api/jobs")).status_code == 401
    foreign = call(client, "GET", "/api/jobs", headers={"Host": "evil.example"})
    assert foreign.status_code == 403
    assert set(check(client.get("/api/health")).json()) == {"status"}
    assert "backend" in call(client, "GET", "/api/health").json()


def test_operation_ids_are_unique_camel_case() -> None:
    ids = [operation["operationId"] for _, _, operation in OPERATIONS]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", i) for i in ids), ids
    assert {"writeDrawer", "postMentions", "getEntity", "health"} <= set(ids)


def test_no_route_declares_a_status_it_cannot_give() -> None:
    health = DOCUMENT["paths"]["/api/health"]["get"]["responses"]
    assert sorted(health) == ["200", "403", "503"]
    for path, method, operation in OPERATIONS:
        statuses = set(operation["responses"])
        if "requestBody" not in operation:
            assert "413" not in statuses, (method, path)
        if method == "get":
            assert "409" not in statuses, (method, path)
    assert "400" not in DOCUMENT["paths"]["/api/hygiene"]["get"]["responses"]
    assert "HTTPValidationError" not in DOCUMENT["components"]["schemas"]


def test_bearer_auth_and_idempotency_keys_are_declared() -> None:
    schemes = DOCUMENT["components"]["securitySchemes"]
    assert [s for s in schemes.values() if (s["type"], s["scheme"]) == ("http", "bearer")]
    for path, method, operation in OPERATIONS:
        headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
        assert ("Idempotency-Key" in headers) == (method in ("post", "put")), (method, path)
        assert bool(operation.get("security")) == (path != "/api/health"), (method, path)


def test_the_entity_is_typed_with_same_as() -> None:
    entity = DOCUMENT["components"]["schemas"]["EntityOut"]
    assert entity.get("additionalProperties") is not True
    assert {"id", "name", "kind", "key", "aliases", "created_at", "same_as"} <= set(
        entity["properties"]
    )


LINKS = re.compile(r"""(?:src|href|url)\s*[=:]\s*['"]([^'"]+)['"]""")


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_docs_pages_load_nothing_from_another_host(client: TestClient, page: str) -> None:
    assert client.get(page).status_code == 401  # behind the tokens, like before
    html = client.get(page, headers=ADMIN).text
    assert "//" not in html.replace("<!--", "")  # no absolute URL, no scheme-relative one
    links = set(LINKS.findall(html)) - {"data:,"}
    assets = [link for link in links if link.endswith((".js", ".css"))]
    assert assets, html
    for link in links:
        assert link.startswith("/"), link
        assert client.get(link, headers=ADMIN).status_code == 200, link
    for asset in assets:
        answer = client.get(asset, headers=ADMIN)
        kind = "javascript" if asset.endswith(".js") else "css"
        assert kind in answer.headers["content-type"], asset
        assert len(answer.content) > 10_000, asset
        assert client.get(asset).status_code == 401
