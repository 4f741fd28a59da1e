"""A Neo4j older than 5.23 is refused by name and version; every later one, 5.x or calendar
versioned (2025.01 on), is accepted."""

import pytest

from castlegraph.api.http.statuses import http_status
from castlegraph.graph.backends.server import Server, require_neo4j, version_numbers
from castlegraph.graph.errors import UnsupportedServer
from castlegraph.resolver.errors import ErrorCode


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("5.22.0", (5, 22, 0)),
        ("5.23", (5, 23, 0)),
        ("5.26.3", (5, 26, 3)),
        ("2025.01.0", (2025, 1, 0)),
        ("2025.10", (2025, 10, 0)),
        ("4.4", (4, 4, 0)),
        ("5.27-aura", (5, 27, 0)),
        (" 5.26.0 ", (5, 26, 0)),
        ("dev", None),
        ("", None),
        ("5", None),
    ],
)
def test_versions_read_as_numbers(text: str, numbers: tuple[int, int, int] | None) -> None:
    assert version_numbers(text) == numbers


@pytest.mark.parametrize("version", ["5.23.0", "5.23", "5.26.3", "2025.01.0", "2025.10"])
def test_neo4j_from_5_23_is_accepted(version: str) -> None:
    server = Server("Neo4j", version, "community")
    assert require_neo4j(server) is server


@pytest.mark.parametrize("version", ["5.22.0", "5.22", "5.9.0", "4.4", "4.4.40", "3.5.0", "dev"])
def test_an_older_or_unreadable_neo4j_is_refused_naming_both_versions(version: str) -> None:
    with pytest.raises(UnsupportedServer) as refused:
        require_neo4j(Server("Neo4j", version, "enterprise"))
    error = refused.value
    assert (error.code, http_status(type(error)), error.is_retryable()) == (
        ErrorCode.GRAPH_UNSUPPORTED_SERVER,
        503,
        False,
    )
    assert error.code == "graph::unsupported_server"
    assert "castlegraph needs Neo4j 5.23 or later" in error.message
    assert f"{version!r} (enterprise edition)" in error.message
    assert error.details == {"found": version, "edition": "enterprise", "minimum": "5.23"}


def test_a_server_reads_as_product_version_and_edition() -> None:
    assert str(Server("Neo4j", "5.26.0", "community")) == "Neo4j 5.26.0 community"
    assert str(Server("FalkorDB", "4.16.3")) == "FalkorDB 4.16.3"
