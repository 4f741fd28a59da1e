"""What the MCP and CLI doors make of an error, and the codes a client may meet, pinned: the
error tree moved codes and statuses between modules, and no client may see it."""

from pathlib import Path

import pytest
import typer
from mcp.server.mcpserver.exceptions import ToolError

from castlegraph.api.cli.options import EXIT_FAILED, reported_errors
from castlegraph.api.client.http import RemoteError
from castlegraph.api.errors import DoorCode, ServiceUnreachable, UnexportableValue, WireCode
from castlegraph.api.http.app import create_app
from castlegraph.api.mcp.errors import tool_errors
from castlegraph.api.service.settings import Settings
from castlegraph.graph.errors import DataDirInUse, GraphQueryError, UnknownDrawers
from castlegraph.resolver.errors import CastlegraphError, EmptyLabel, ErrorCode
from tests.support.exceptions import project_exception_classes

WIRE_CODES = [
    "internal::error",
    "input::invalid",
    "domain::empty_label",
    "payload::too_large",
    "auth::unauthorized",
    "auth::forbidden",
    "idempotency::key_reused",
    "http::not_found",
    "http::method_not_allowed",
    "http::error",
    "cli::service_unreachable",
    "service::busy",
    "graph::error",
    "graph::unavailable",
    "graph::constraint_violation",
    "graph::query_failed",
    "graph::migration_failed",
    "graph::data_dir_in_use",
    "graph::unsupported_server",
    "graph::misconfigured",
    "graph::entity_not_found",
    "graph::review_link_not_found",
    "graph::alias_taken",
    "palace::drawer_not_found",
    "palace::drawer_name_taken",
    "palace::drawer_superseded",
    "palace::invalid_path",
    "jobs::job_not_found",
    "export::not_found",
]
"""The codes of the envelope's schema, in the order the OpenAPI document lists them."""


def test_the_core_and_the_doors_split_the_codes_and_the_wire_lists_them_all() -> None:
    core, doors = {c.value for c in ErrorCode}, {c.value for c in DoorCode}
    assert not core & doors
    assert core | doors == set(WIRE_CODES)
    assert [c.value for c in WireCode] == WIRE_CODES


def test_the_openapi_document_lists_the_codes_as_one_enum() -> None:
    document = create_app(Settings(graph={"data_dir": Path("/nonexistent")})).openapi()
    schemas = document["components"]["schemas"]
    assert schemas["ErrorBody"]["properties"]["code"] == {
        "$ref": "#/components/schemas/ErrorCode",
        "description": "Stable, machine-readable: `area::reason`.",
    }
    assert schemas["ErrorCode"] == {
        "type": "string",
        "enum": WIRE_CODES,
        "title": "ErrorCode",
        "description": "Every code the service reports; a member's name is its code spelled as "
        "an identifier.",
    }


def test_a_service_answer_keeps_its_code_whichever_enum_holds_it() -> None:
    assert RemoteError(401, WireCode("auth::unauthorized"), "no").code == "auth::unauthorized"
    assert RemoteError(404, WireCode("graph::entity_not_found"), "no").code == (
        ErrorCode.GRAPH_ENTITY_NOT_FOUND
    )


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (EmptyLabel("alias"), "domain::empty_label: alias must not be blank"),
        (
            EmptyLabel("kind", "the mention's kind is blank", {"index": 1, "field": "kind"}),
            "domain::empty_label: the mention's kind is blank (index: 1)",
        ),
        (
            UnknownDrawers({2: "d-9"}),
            "input::invalid: mentions refer to drawers that do not exist: "
            "index 2, drawer d-9, error palace::drawer_not_found",
        ),
        (ServiceUnreachable("cannot reach the service"), "cli::service_unreachable: cannot"),
        (RemoteError(500, ErrorCode.INTERNAL_ERROR, "the service failed; see its log"), "inte"),
        (GraphQueryError("MATCH (n) ... syntax error"), "internal::error: the service failed"),
        (DataDirInUse("held by pid 7"), "internal::error: the service failed; see its log"),
        (UnexportableValue("nan has no Cypher literal"), "internal::error: the service failed"),
    ],
)
def test_the_mcp_door_shows_answers_with_their_code_and_bugs_as_failures(
    error: CastlegraphError, text: str
) -> None:
    with pytest.raises(ToolError) as raised, tool_errors():
        raise error
    assert str(raised.value).startswith(text)
    assert "MATCH" not in str(raised.value) and "pid" not in str(raised.value)


@pytest.mark.parametrize(
    "kind", [k for k in project_exception_classes() if issubclass(k, CastlegraphError)]
)
def test_every_error_of_the_tree_ends_a_command_with_status_1(
    kind: type[CastlegraphError], capsys: pytest.CaptureFixture[str]
) -> None:
    error = kind.__new__(kind)
    CastlegraphError.__init__(error, "what went wrong", {"field": "name"})
    with pytest.raises(typer.Exit) as ended, reported_errors():
        raise error
    assert ended.value.exit_code == EXIT_FAILED == 1
    assert capsys.readouterr().err == "castlegraph: what went wrong (field: name)\n"
