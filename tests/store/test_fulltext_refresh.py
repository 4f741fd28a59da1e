"""Neo4j's entity key index takes its updates after the commit, and a probe still sees every
entity committed before it (design §5.4); the drawers' term index stays synchronous.

A commit that refreshes Lucene's reader itself costs several milliseconds, so the entity index is
eventually consistent and `entities_by_probe_keys` first waits for the updates committed before
it. An eventually consistent index does not see its own transaction's writes, which a drawer
batch's later parts read (`graph.drawers.drawer_batch`): `drawer_terms` stays as it was. The
searches below go through the database's own indexes (no in-memory index), each right after the
commit it must see, many times over: a probe that did not wait would miss some of them.
"""

from typing import Any

import pytest

from castlegraph.graph.backends.neo4j_store import Neo4jStore
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.drawers.palace import write_drawer
from castlegraph.graph.entities.resolution import MentionInput, resolve_mentions
from castlegraph.resolver.entity_model import make_mention
from tests.store.test_entities import KNOWN_WORD

ROUNDS = 15
TEXT = "rotate the staging certificates before the audit on friday morning in room {n}"
COPY = TEXT.replace("audit", "audti")


@pytest.mark.neo4j
def test_neo4j_full_text_indexes_are_eventually_consistent(
    neo4j_session_store: Neo4jStore,
) -> None:
    rows = neo4j_session_store.run_text("SHOW FULLTEXT INDEXES YIELD name, options", {})
    consistency = {
        row["name"]: row["options"]["indexConfig"]["fulltext.eventually_consistent"] for row in rows
    }
    assert consistency == {"drawer_terms": False, "entity_dkeys": True}


def test_a_near_copy_finds_the_drawer_committed_just_before(store: Any) -> None:
    policy = DedupPolicy()
    for n in range(ROUNDS):
        room = f"r{n}"
        original = write_drawer(store, NewDrawer("w", room, TEXT.format(n=n)), policy)
        copy = write_drawer(store, NewDrawer("w", room, COPY.format(n=n)), policy)
        assert copy.created
        assert [entry.drawer for entry in copy.similar] == [original.drawer.id]


def test_a_mention_finds_the_entity_committed_just_before(store: Any) -> None:
    drawer = write_drawer(store, NewDrawer("w", "r", "notes"), DedupPolicy()).drawer.id

    def resolved(name: str) -> tuple[str, str, bool]:
        inputs = [MentionInput(drawer, make_mention(name, "org"))]
        [result] = resolve_mentions(store, inputs, fuzzy=True, known_word=KNOWN_WORD)
        return result.entity.view.id, result.rule, result.created

    for n in range(ROUNDS):
        created, _, was_new = resolved(f"Quorvex Dynamics {n}")
        assert was_new
        assert resolved(f"Quorvex Dynamics {n}") == (created, "exact", False)
        assert resolved(f"Quorvex Dynamcs {n}") == (created, "typo", False)
