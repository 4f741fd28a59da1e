"""Fixtures that start real databases (cartography-style): never a mocked graph.

- `falkordb_session_store`: an embedded FalkorDB started once per session.
- `neo4j_session_store`: Neo4j from `NEO4J_URI`, or a `neo4j:5` container when a Docker engine
  answers; otherwise every Neo4j test is skipped with the reason.
- `store`: the same store test on every backend available, the graph wiped before it.
"""

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graph.embedded import HOST, EmbeddedFalkorDB
from graph.falkordb_store import FalkorStore
from graph.neo4j_store import Neo4jStore

NEO4J_IMAGE = "neo4j:5.26"


@pytest.fixture(scope="session")
def falkordb_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedFalkorDB]:
    server = EmbeddedFalkorDB(tmp_path_factory.mktemp("falkordb"), fsync="everysec")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def falkordb_session_store(falkordb_server: EmbeddedFalkorDB) -> Iterator[FalkorStore]:
    store = FalkorStore(HOST, falkordb_server.port, falkordb_server.password)
    store.apply_schema()
    yield store
    store.close()


def _docker_engine_reason() -> str | None:
    """None when a Docker engine answers, else why Neo4j tests cannot run here."""
    host = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    if host.startswith("unix://") and not Path(host.removeprefix("unix://")).exists():
        return f"no NEO4J_URI, and no Docker engine at {host} for testcontainers"
    try:
        import docker  # noqa: PLC0415  # optional: only needed when probing for an engine

        client = docker.from_env()
        try:
            client.ping()
        finally:
            client.close()
    except Exception as error:
        return f"no NEO4J_URI, and the Docker engine did not answer ({type(error).__name__})"
    return None


@pytest.fixture(scope="session")
def neo4j_session_store() -> Iterator[Neo4jStore]:
    uri = os.environ.get("NEO4J_URI")
    if uri:
        store = Neo4jStore(
            uri,
            os.environ.get("NEO4J_USER", "neo4j"),
            os.environ.get("NEO4J_PASSWORD", "neo4j"),
            os.environ.get("NEO4J_DATABASE", "neo4j"),
        )
        store.apply_schema()
        yield store
        store.close()
        return
    reason = _docker_engine_reason()
    if reason:
        pytest.skip(reason)
    from testcontainers.neo4j import Neo4jContainer  # noqa: PLC0415  # only with an engine

    with Neo4jContainer(NEO4J_IMAGE) as container:
        store = Neo4jStore(container.get_connection_url(), "neo4j", container.password, "neo4j")
        store.apply_schema()
        yield store
        store.close()


@pytest.fixture(params=["falkordb", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def store(request: pytest.FixtureRequest) -> Any:
    backend = request.getfixturevalue(f"{request.param}_session_store")
    backend.wipe()
    return backend
