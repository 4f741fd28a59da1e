"""Fixtures that start real databases (cartography-style): never a mocked graph.

- `falkordb_session_store`: an embedded FalkorDB started once per session.
- `neo4j_session_store`: a store on the session's Neo4j (`neo4j_address`, `tests/conftest.py`).
- `store`: the same store test on every backend available, the graph wiped before it.

Both stores have every index, the candidate indexes included (the schema as a service with
`dedup.memory_index = false` applies it): the property tests compare the in-memory indexes with
the database's own, so these must be there (design §5.4).
"""

import os
from collections.abc import Iterator
from typing import Any

import pytest

from castlegraph.graph.backends.embedded import HOST, EmbeddedFalkorDB
from castlegraph.graph.backends.falkordb_store import FalkorStore
from castlegraph.graph.backends.neo4j_store import Neo4jStore
from castlegraph.graph.errors import GraphUnavailable


@pytest.fixture(scope="session")
def falkordb_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedFalkorDB]:
    server = EmbeddedFalkorDB(tmp_path_factory.mktemp("falkordb"), fsync="everysec")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def falkordb_session_store(falkordb_server: EmbeddedFalkorDB) -> Iterator[FalkorStore]:
    store = FalkorStore(HOST, falkordb_server.port, falkordb_server.password)
    try:
        store.apply_schema()
    except GraphUnavailable:
        # As a service's start does (`Runtime._connect_embedded`): FalkorDB 4.16 has, rarely,
        # left a just-started child's `CREATE INDEX` unanswered for good. The next child
        # reads the same file, and the schema is idempotent.
        store.close()
        falkordb_server.restart()
        store = FalkorStore(HOST, falkordb_server.port, falkordb_server.password)
        store.apply_schema()
    yield store
    store.close()


@pytest.fixture(scope="session")
def neo4j_session_store(neo4j_address: tuple[str, str, str]) -> Iterator[Neo4jStore]:
    uri, user, password = neo4j_address
    store = Neo4jStore(uri, user, password, os.environ.get("NEO4J_DATABASE", "neo4j"))
    store.apply_schema()
    yield store
    store.close()


@pytest.fixture
def falkordb_store(falkordb_session_store: FalkorStore) -> FalkorStore:
    """For the few tests that read FalkorDB's own query plans or stored arrays."""
    falkordb_session_store.wipe()
    return falkordb_session_store


@pytest.fixture(params=["falkordb", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def store(request: pytest.FixtureRequest) -> Any:
    backend = request.getfixturevalue(f"{request.param}_session_store")
    backend.wipe()
    return backend
