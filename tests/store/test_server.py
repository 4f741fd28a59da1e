"""Each backend names its server; a Neo4j older than castlegraph's statements need is refused
at start and by the in-process commands, naming the version found and the one needed."""

import logging
from pathlib import Path
from typing import Any

import pytest

from castlegraph.api.client.connect import open_exclusive
from castlegraph.api.service.runtime import Runtime
from castlegraph.graph.backends import server as server_module
from castlegraph.graph.backends.server import version_numbers
from castlegraph.graph.errors import UnsupportedServer
from tests.support.app import app_settings


def test_each_backend_reports_its_server(store: Any) -> None:
    server = store.server()
    numbers = version_numbers(server.version)
    if store.dialect == "neo4j":
        # the session's Neo4j is the 5.26 LTS the launcher pins
        assert (server.product, server.edition) == ("Neo4j", "community")
        assert numbers is not None and numbers[:2] == (5, 26)
    else:
        assert (server.product, server.edition) == ("FalkorDB", "")
        assert numbers is not None and numbers >= (4, 0, 0)


def neo4j_settings(tmp_path: Path, neo4j_address: tuple[str, str, str]) -> Any:
    uri, user, password = neo4j_address
    graph = {"neo4j_uri": uri, "neo4j_user": user, "neo4j_password": password}
    return app_settings(tmp_path, graph=graph)


@pytest.mark.neo4j
def test_the_start_log_names_the_neo4j_version_and_edition(
    tmp_path: Path, neo4j_address: tuple[str, str, str], caplog: pytest.LogCaptureFixture
) -> None:
    runtime = Runtime(neo4j_settings(tmp_path, neo4j_address))
    with caplog.at_level(logging.INFO):
        runtime.start()
    try:
        ready = [r.getMessage() for r in caplog.records if "graph ready" in r.getMessage()]
        assert len(ready) == 1
        assert ready[0].startswith("graph ready: neo4j, Neo4j 5.26.")
        assert ready[0].endswith(" community")
    finally:
        runtime.stop()


@pytest.mark.neo4j
def test_a_neo4j_older_than_needed_is_refused_at_start(
    tmp_path: Path, neo4j_address: tuple[str, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session's Neo4j stands for an old one: the minimum is raised above it."""
    monkeypatch.setattr(server_module, "NEO4J_MINIMUM", (2100, 1))
    settings = neo4j_settings(tmp_path, neo4j_address)
    runtime = Runtime(settings)
    with pytest.raises(UnsupportedServer) as refused:
        runtime.start()
    assert not runtime.ready
    message = refused.value.message
    assert message.startswith("castlegraph needs Neo4j 2100.1 or later; the server reports ")
    assert "version '5.26." in message and message.endswith("(community edition)")
    with pytest.raises(UnsupportedServer):
        open_exclusive(settings, "migrate")
