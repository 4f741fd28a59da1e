"""Fuzz the API with input its schema refuses (schemathesis negative mode), and with valid input
naming things that exist, on a service with tokens configured, on both backends.

Every answer is checked against the schema: no 5xx, a documented status, a documented body
(the error envelope on every refusal), and invalid input never accepted. The graph is kept
between examples and holds a drawer, an entity and a job whose ids the generated requests use
half of the time, so the routes get past their "not found" into their real work.
"""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from castlegraph.api.http.app import create_app
from castlegraph.api.service.settings import Settings
from tests.api.conftest import BACKENDS
from tests.support.app import app_settings, assert_envelope, backend_graph, running_app, wiped

EXAMPLES = 20
SKIPPED = {"/mcp"}  # the MCP transport speaks its own protocol, tested on its own
ADMIN = {"Authorization": "Bearer admin-secret"}
TOKENS = ["admin-secret", "ada:ada-secret"]

SCHEMA = schemathesis.openapi.from_dict(
    create_app(Settings(graph={"data_dir": Path("/nonexistent")}, api={"tokens": TOKENS})).openapi()
)
# Every request carries the admin token (below): a case generated without it, as a violation of
# the declared bearer auth, would be accepted. Tokens have their own tests (test_auth.py).
SCHEMA.config.generation.update(with_security_parameters=False)
OPERATIONS = [
    result.ok() for result in SCHEMA.get_all_operations() if result.ok().path not in SKIPPED
]
CASES = [
    pytest.param(operation, mode, id=f"{mode.value}-{operation.method.upper()} {operation.path}")
    for operation in OPERATIONS
    for mode in (GenerationMode.NEGATIVE, GenerationMode.POSITIVE)
    # Negative input needs a body or a query to break: any string is a valid path segment, and
    # the service reads no header the schema declares.
    if mode is GenerationMode.POSITIVE or operation.body or list(operation.query)
]
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module", params=BACKENDS)
def secured(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, mine_root: Path
) -> Iterator[TestClient]:
    """The secured app on each backend: a refusal must not depend on the database behind it."""
    api = {"tokens": TOKENS, "mine_roots": [mine_root]}
    graph = backend_graph(request)
    settings_ = app_settings(tmp_path_factory.mktemp("fuzz"), graph=graph, api=api)
    with running_app(settings_) as client:
        client.headers.update(ADMIN)
        yield client


@pytest.fixture(scope="module")
def existing(secured: TestClient) -> dict[str, str]:
    """Ids that exist for the whole module: path parameters are drawn from them or generated."""
    wiped(secured)
    room = "/api/wings/w/rooms/r/drawers"
    drawer = secured.post(room, json={"content": "the fuzz's drawer"}).json()["drawer"]["id"]
    other = secured.post(room, json={"content": "the fuzz's other drawer"}).json()["drawer"]["id"]
    mentions = [
        {"drawer": drawer, "name": "Ada Lovelace", "kind": "person"},
        {"drawer": drawer, "name": "Ada Lovelance", "kind": "person"},
    ]
    resolved = secured.post("/api/mentions", json={"mentions": mentions}).json()["results"]
    body = {"wing": "w", "room": "r", "items": [{"content": "a checkpoint"}]}
    job = secured.post("/api/checkpoints", json=body).json()["job"]["id"]
    return {
        "drawer_id": drawer,
        "other_id": other,
        "entity_id": resolved[0]["entity"]["id"],
        "job_id": job,
    }


def known_ids(operation: Any, existing: dict[str, str]) -> st.SearchStrategy[dict[str, str]]:
    """Path parameters naming existing things (half the time), else whatever is generated."""
    names = [p.name for p in operation.path_parameters]
    if not names or not set(names) <= set(existing):
        return st.just({})
    return st.sampled_from([{}, {name: existing[name] for name in names}])


@pytest.mark.parametrize(("operation", "mode"), CASES)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_answers_match_the_schema_for_bad_and_good_input(
    operation: Any,
    mode: GenerationMode,
    data: st.DataObject,
    secured: TestClient,
    existing: dict[str, str],
) -> None:
    ids = data.draw(known_ids(operation, existing)) if mode is GenerationMode.POSITIVE else {}
    case = data.draw(operation.as_strategy(generation_mode=mode, path_parameters=ids or None))
    request = case.as_transport_kwargs(base_url=str(secured.base_url))
    request.pop("cookies", None)  # the API reads none, and per-request cookies are deprecated
    if isinstance(request.get("data"), bytes | str):  # raw bytes go as content in httpx
        request["content"] = request.pop("data")
    headers = request.get("headers") or {}
    headers.setdefault("Authorization", ADMIN["Authorization"])
    request["headers"] = headers
    response = secured.request(**request)
    checks = [*CHECKS, negative_data_rejection] if mode is GenerationMode.NEGATIVE else CHECKS
    case.validate_response(response, checks=checks, headers=headers)
    if response.status_code >= 400:
        body = response.json()
        assert_envelope(body, body["error"]["code"])
