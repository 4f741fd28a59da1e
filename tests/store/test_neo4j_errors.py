"""Neo4j's driver errors become the graph layer's at the store boundary, for every call.

A server that is not there (or still starting) is `GraphUnavailable`, which the runtime's retry
loop waits out; before, `apply_schema` let the driver's own class through and the loop died.
(Managed transactions are translated too, but the driver retries them for 30 s first.)
"""

import socket
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from castlegraph.api.http.statuses import http_status
from castlegraph.graph.backends import neo4j_store
from castlegraph.graph.backends.neo4j_store import Neo4jStore
from castlegraph.graph.errors import GraphUnavailable
from tests.support.holding import holding_first


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


def test_a_write_that_times_out_waiting_for_a_lock_is_unavailable_not_a_bug(
    neo4j_session_store: Neo4jStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lock's wait counts against the transaction's timeout: a batch queued behind a long one
    is told to retry (503), not that the service failed (500)."""
    store = neo4j_session_store
    with holding_first("take_lock") as hold, ThreadPoolExecutor(max_workers=1) as pool:
        holder = pool.submit(store.write, lambda tx: tx.lock("busy"), use_case="hold")
        assert hold.holding.wait(timeout=30)
        monkeypatch.setattr(neo4j_store, "TX_TIMEOUT_SECONDS", 1.0)  # the waiter's only
        with pytest.raises(GraphUnavailable):
            store.write(lambda tx: tx.lock("busy"), use_case="wait")
        hold.release.set()
        holder.result(timeout=60)


def test_an_unreachable_neo4j_is_told_in_castlegraphs_words(unreachable: Neo4jStore) -> None:
    """The driver's text names the host and port; the client hears neither, the log does."""
    with pytest.raises(GraphUnavailable) as caught:
        unreachable.ping()
    error = caught.value
    assert (http_status(type(error)), error.is_retryable()) == (503, True)
    assert "127.0.0.1" not in error.message
    assert "127.0.0.1" in error.log_text()
