"""Each backend names its server; a Neo4j older than castlegraph's statements need is refused
at start and by the in-process commands, naming the version found and the one needed."""

import logging
import os
from pathlib import Path
from typing import Any

import pytest

from castlegraph.api.client.connect import open_exclusive
from castlegraph.api.service.runtime import Runtime
from castlegraph.graph.backends import server as server_module
from castlegraph.graph.backends.neo4j_store import Neo4jStore
from castlegraph.graph.backends.server import NEO4J_MINIMUM, Server, version_numbers
from castlegraph.graph.errors import UnsupportedServer
from tests.support.app import app_settings


def test_each_backend_reports_its_server(store: Any) -> None:
    server = store.server()
    numbers = version_numbers(server.version)
    if store.dialect == "neo4j":
        assert (server.product, server.edition) == ("Neo4j", "community")
        assert numbers is not None and numbers[:2] >= NEO4J_MINIMUM
        if not os.environ.get("NEO4J_URI"):  # the launcher's: 5.26 LTS unless another is asked
            launched = os.environ.get("CASTLEGRAPH_NEO4J_VERSION", "5.26.")
            assert server.version.startswith(launched)
    else:
        assert (server.product, server.edition) == ("FalkorDB", "")
        assert numbers is not None and numbers >= (4, 0, 0)


def neo4j_settings(tmp_path: Path, neo4j_address: tuple[str, str, str]) -> Any:
    uri, user, password = neo4j_address
    graph = {"neo4j_uri": uri, "neo4j_user": user, "neo4j_password": password}
    return app_settings(tmp_path, graph=graph)


def session_server(neo4j_address: tuple[str, str, str]) -> Server:
    store = Neo4jStore(*neo4j_address, "neo4j")
    try:
        return store.server()
    finally:
        store.close()


@pytest.mark.neo4j
def test_the_start_log_names_the_neo4j_version_and_edition(
    tmp_path: Path, neo4j_address: tuple[str, str, str], caplog: pytest.LogCaptureFixture
) -> None:
    runtime = Runtime(neo4j_settings(tmp_path, neo4j_address))
    with caplog.at_level(logging.INFO):
        runtime.start()
    try:
        ready = [r.getMessage() for r in caplog.records if "graph ready" in r.getMessage()]
        assert ready == [f"graph ready: neo4j, {session_server(neo4j_address)}"]
        assert ready[0].startswith("graph ready: neo4j, Neo4j ")
        assert ready[0].endswith(" community")
    finally:
        runtime.stop()


@pytest.mark.neo4j
def test_a_neo4j_older_than_needed_is_refused_at_start(
    tmp_path: Path, neo4j_address: tuple[str, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session's Neo4j stands for an old one: the minimum is raised above it."""
    found = session_server(neo4j_address).version
    monkeypatch.setattr(server_module, "NEO4J_MINIMUM", (2100, 1))
    settings = neo4j_settings(tmp_path, neo4j_address)
    runtime = Runtime(settings)
    with pytest.raises(UnsupportedServer) as refused:
        runtime.start()
    assert not runtime.ready
    message = refused.value.message
    assert message == (
        f"castlegraph needs Neo4j 2100.1 or later; the server reports version {found!r} "
        "(community edition)"
    )
    with pytest.raises(UnsupportedServer):
        open_exclusive(settings, "migrate")
