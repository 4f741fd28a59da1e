"""Neo4j's driver errors become the graph layer's at the store boundary, for every call.

A server that is not there (or still starting) is `GraphUnavailable`, which the runtime's retry
loop waits out; before, `apply_schema` let the driver's own class through and the loop died.
(Managed transactions are translated too, but the driver retries them for 30 s first.)
"""

import socket
from collections.abc import Iterator

import pytest

from graph.errors import GraphUnavailable
from graph.neo4j_store import Neo4jStore


@pytest.fixture
def unreachable() -> Iterator[Neo4jStore]:
    with socket.socket() as probe:  # a loopback port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    store = Neo4jStore(f"bolt://127.0.0.1:{port}", "neo4j", "password", "neo4j")
    yield store
    store.close()


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.ping(),
        lambda s: s.apply_schema(),
        lambda s: s.ensure_vector_index(3),
    ],
    ids=["ping", "apply_schema", "ensure_vector_index"],
)
def test_an_unreachable_neo4j_is_graph_unavailable(unreachable: Neo4jStore, call: object) -> None:
    with pytest.raises(GraphUnavailable):
        call(unreachable)  # type: ignore[operator]
