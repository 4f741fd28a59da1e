"""Neo4j's full-text indexes take their updates after the commit, and a search still sees every
write committed before it (design §4.5, §5.4).

A commit that refreshed Lucene's reader itself was most of a single drawer write's commit on
Neo4j, so its two full-text indexes are eventually consistent and the statements that search
them first wait for the updates committed before them. The writes below go through the
database's own candidate indexes (no in-memory index), each search right after the commit it
must see, many times over: a search that did not wait would miss some of them.
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
    assert consistency == {"drawer_terms": True, "entity_dkeys": True}


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
