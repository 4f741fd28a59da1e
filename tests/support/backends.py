"""The graph an end-to-end test's processes use: the embedded FalkorDB each `castlegraph`
process starts on its data directory, or one Neo4j that all of them share.

The `backend` fixture (`tests/e2e/conftest.py`) gives a test one of these per backend.
"""

from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from castlegraph.graph.backends.neo4j_store import Neo4jStore
from castlegraph.graph.backends.opener import Neo4jTarget
from tests.support.seeding import migrated_graph, opened_graph

NEO4J_DATABASE = "neo4j"


@dataclass(frozen=True)
class Backend:
    """Where a test's processes keep the graph, and how the test itself reaches it."""

    name: str
    neo4j: Neo4jTarget | None = None
    env: dict[str, str] = field(default_factory=dict)
    """The settings every `castlegraph` process of the test is given (none: embedded)."""

    def graph(self, data_dir: Path) -> AbstractContextManager[Any]:
        """The store as it is, closed on exit (on the embedded database: stop the service
        first, its data directory is locked while one runs)."""
        return opened_graph(data_dir, self.neo4j)

    def migrated(self, data_dir: Path) -> AbstractContextManager[Any]:
        """The store with its schema and migrations, closed on exit."""
        return migrated_graph(data_dir, self.neo4j)

    def graph_settings(self) -> dict[str, str]:
        """The `graph` settings of an app in-process (`tests.support.app.app_settings`)."""
        if self.neo4j is None:
            return {}
        return {
            "neo4j_uri": self.neo4j.uri,
            "neo4j_user": self.neo4j.user,
            "neo4j_password": self.neo4j.password,
        }

    def empty(self) -> None:
        """An empty graph for the next palace: the one Neo4j is wiped, while on the embedded
        database each data directory is a graph of its own already."""
        if self.neo4j is not None:
            wipe_neo4j((self.neo4j.uri, self.neo4j.user, self.neo4j.password))


def neo4j_backend(address: tuple[str, str, str]) -> Backend:
    uri, user, password = address
    env = {
        "CASTLEGRAPH_NEO4J_URI": uri,
        "CASTLEGRAPH_NEO4J_USER": user,
        "CASTLEGRAPH_NEO4J_PASSWORD": password,
    }
    return Backend("neo4j", Neo4jTarget(uri, user, password, NEO4J_DATABASE), env)


def wipe_neo4j(address: tuple[str, str, str]) -> None:
    """An empty graph (the schema stays), as each store test starts with."""
    store = Neo4jStore(*address, NEO4J_DATABASE)
    try:
        store.wipe()
    finally:
        store.close()
