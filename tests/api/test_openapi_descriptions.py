"""`/docs` speaks to a client: route descriptions say what a route does, not how the code does
it, and the main request bodies come with examples, each one a body the service accepts."""

from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import BaseModel

from castlegraph.api.http.app import create_app
from castlegraph.api.models.drawers import DrawerCreate
from castlegraph.api.models.duplicates import VerdictCreate
from castlegraph.api.models.entities import AliasCreate, ResolveQuery, ReviewVerdictCreate
from castlegraph.api.models.jobs import CheckpointCreate
from castlegraph.api.models.mentions import MentionBatchCreate, MentionCreate, MentionIn
from castlegraph.api.service.settings import Settings

DOCUMENT = create_app(Settings(graph={"data_dir": Path("/nonexistent")})).openapi()
DESCRIPTIONS = {
    f"{method.upper()} {path}": operation.get("description", "")
    for path, operations in DOCUMENT["paths"].items()
    for method, operation in operations.items()
}
IMPLEMENTATION_WORDS = [
    "pydantic",
    "FastAPI",
    "serialised",
    "json_of",
    "node property",
    "`viewer`",
    "MENTIONS",
    "POSSIBLY_SAME_AS",
    "design §",
]
"""Words of the code, the graph or the project's own design document: none helps a client."""

EXAMPLED: list[type[BaseModel]] = [
    DrawerCreate,
    MentionCreate,
    MentionIn,
    MentionBatchCreate,
    AliasCreate,
    ReviewVerdictCreate,
    ResolveQuery,
    CheckpointCreate,
    VerdictCreate,
]


@pytest.mark.parametrize("operation", sorted(DESCRIPTIONS))
def test_a_route_description_speaks_to_a_client(operation: str) -> None:
    description = DESCRIPTIONS[operation]
    assert [w for w in IMPLEMENTATION_WORDS if w in description] == [], description


def test_the_mention_routes_say_where_the_drawer_id_comes_from() -> None:
    assert "drawer write" in DESCRIPTIONS["POST /api/mentions"]
    assert "mentions name" in DESCRIPTIONS["POST /api/wings/{wing}/rooms/{room}/drawers"]


@pytest.mark.parametrize("model", EXAMPLED, ids=lambda model: model.__name__)
def test_a_main_request_body_has_examples_the_service_accepts(model: type[BaseModel]) -> None:
    schema: dict[str, Any] = DOCUMENT["components"]["schemas"][model.__name__]
    found = schema.get("examples", [])
    assert found, f"{model.__name__} has no examples"
    validator = Draft202012Validator({**schema, "components": DOCUMENT["components"]})
    for example in found:
        assert [e.message for e in validator.iter_errors(example)] == [], example
        model.model_validate(example)  # the model's own checks too (plain text, lengths)


@pytest.mark.parametrize("model", EXAMPLED, ids=lambda model: model.__name__)
def test_examples_keep_unknown_fields_refused(model: type[BaseModel]) -> None:
    assert model.model_config.get("extra") == "forbid"
