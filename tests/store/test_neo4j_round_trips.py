"""A unit of work on Neo4j costs one round trip per statement and one for its commit: its BEGIN
goes out with the first statement instead of waiting for an answer of its own.

Round trips are counted on the wire as the driver logs it (`neo4j.io`, DEBUG): the client's
messages up to each answer of the server are one exchange. A single drawer write was four of
them (BEGIN, the room's lock, the write, COMMIT) before BEGIN rode along with the lock, and
three before the lock rode along with the write (`Tx.run_locked`).
"""

import logging
import re

import pytest

from castlegraph.graph.backends.neo4j_store import Neo4jStore
from castlegraph.graph.backends.store import Tx
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.drawers.palace import write_drawer
from castlegraph.graph.indexes.drawer_index import DrawerIndex

POLICY = DedupPolicy()
MESSAGE = re.compile(r"^\[#(\w+)\]\s+([CS]): (\w+)")


def _exchanges(records: list[logging.LogRecord]) -> list[list[str]]:
    """The client's messages of each round trip on the connection that sent the first BEGIN."""
    messages = [found.groups() for r in records if (found := MESSAGE.match(r.getMessage()))]
    connection = next(conn for conn, side, name in messages if side == "C" and name == "BEGIN")
    exchanges: list[list[str]] = []
    sending = False
    for conn, side, name in messages:
        if conn != connection:
            continue
        if side == "C":
            if not sending:
                exchanges.append([])
            exchanges[-1].append(name)
        sending = side == "C"
    return exchanges


@pytest.mark.neo4j
def test_a_unit_sends_its_begin_with_its_first_statement(
    neo4j_session_store: Neo4jStore, caplog: pytest.LogCaptureFixture
) -> None:
    neo4j_session_store.wipe()

    def two_statements(tx: Tx) -> None:
        tx.run("entity_seq")
        tx.run("drawer_seq")

    with caplog.at_level(logging.DEBUG, logger="neo4j.io"):
        neo4j_session_store.write(two_statements, use_case="test")
    assert _exchanges(caplog.records) == [["BEGIN", "RUN", "PULL"], ["RUN", "PULL"], ["COMMIT"]]


@pytest.mark.neo4j
def test_a_read_unit_sends_its_begin_with_its_first_statement(
    neo4j_session_store: Neo4jStore, caplog: pytest.LogCaptureFixture
) -> None:
    neo4j_session_store.wipe()
    with caplog.at_level(logging.DEBUG, logger="neo4j.io"):
        rows = neo4j_session_store.read(lambda tx: tx.run("entity_seq"), use_case="test")
    assert rows == [{"value": 0, "epoch": None}]
    assert _exchanges(caplog.records) == [["BEGIN", "RUN", "PULL"], ["COMMIT"]]


@pytest.mark.neo4j
def test_a_single_drawer_write_is_two_round_trips(
    neo4j_session_store: Neo4jStore, caplog: pytest.LogCaptureFixture
) -> None:
    """Its candidates known to the in-memory index (design §4.5): the write that takes the
    room's lock and checks nothing moved, then the commit."""
    neo4j_session_store.wipe()
    memory = DrawerIndex()
    memory.build(neo4j_session_store)
    text = "rotate the staging certificates before the audit on friday"
    write_drawer(neo4j_session_store, NewDrawer("w", "r", text), POLICY, memory=memory)
    near = NewDrawer("w", "r", text.replace("audit", "audti"))
    with caplog.at_level(logging.DEBUG, logger="neo4j.io"):
        outcome = write_drawer(neo4j_session_store, near, POLICY, memory=memory)
    assert outcome.created and len(outcome.similar) == 1
    assert _exchanges(caplog.records) == [["BEGIN", "RUN", "PULL"], ["COMMIT"]]
