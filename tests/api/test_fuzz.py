"""Fuzz the whole API from its OpenAPI schema (schemathesis): no 5xx, the envelope on 4xx.

Bounded: a few generated requests per operation, so it fits CI. They go to the real app and its
embedded database through the session's TestClient (the schema is taken from the app object,
which builds it without starting anything).
"""

from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castlegraph.api.http.app import create_app
from castlegraph.api.service.settings import Settings

EXAMPLES = 25
SKIPPED = {"/mcp"}  # the MCP transport speaks its own protocol, tested on its own

SCHEMA = schemathesis.openapi.from_dict(
    create_app(Settings(graph={"data_dir": Path("/nonexistent")})).openapi()
)
OPERATIONS = [
    result.ok() for result in SCHEMA.get_all_operations() if result.ok().path not in SKIPPED
]


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: f"{op.method.upper()} {op.path}")
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_no_server_errors_and_the_envelope_on_every_error(
    operation: Any, data: st.DataObject, client: TestClient
) -> None:
    case = data.draw(operation.as_strategy())
    request = case.as_transport_kwargs(base_url=str(client.base_url))
    request.pop("cookies", None)  # the API reads none, and per-request cookies are deprecated
    response = client.request(**request)
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:300])
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, body
        assert isinstance(body["error"]["code"], str)
        assert isinstance(body["error"]["message"], str)
