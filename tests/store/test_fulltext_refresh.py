"""Neo4j's full-text indexes take their updates after the commit, and a search still sees
every entity and drawer committed before it (design §5.4).

A commit that refreshes Lucene's reader itself costs several milliseconds (most of a drawer
write's commit), so both indexes are eventually consistent and the statements that search them
first wait for the updates committed before them. An eventually consistent index does not see its
own transaction's writes, so a drawer batch compares its later items with its earlier ones in
memory, across the parts a repeated name splits it into (`graph.drawers.drawer_batch`). The
searches below go through the database's own indexes (no in-memory index), each right after the
commit it must see, many times over: a search that did not wait would miss some of them.
"""

import random
from typing import Any

import pytest

from castlegraph.graph.backends.neo4j_store import Neo4jStore
from castlegraph.graph.drawers.drawer_batch import write_drawers
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


def _distinct_texts(count: int) -> list[str]:
    """Texts that share no word pair and no band with each other: each its own near copy."""
    rng = random.Random(5)
    words = [f"{a}{b}" for a in ("kel", "mor", "tas", "vin", "dru", "pex") for b in "aeiouy"]
    return [" ".join(rng.sample(words, 14)) + f" number {n}" for n in range(count)]


def test_a_batch_finds_the_near_copies_of_its_own_earlier_parts(store: Any) -> None:
    """A repeated name starts a new part of the batch, in the transaction that wrote the one
    before: the near copies in the later part are found all the same (never by a term index that
    cannot see them)."""
    policy = DedupPolicy()
    texts = _distinct_texts(ROUNDS)
    first = [NewDrawer("w", "r", text, drawer_id=f"a{n}") for n, text in enumerate(texts)]
    named = NewDrawer("w", "r", "the note", name="note", drawer_id="named-1")
    renamed = NewDrawer("w", "r", "the note, again", name="note", drawer_id="named-2")
    copies = [
        NewDrawer("w", "r", text[:-3] + "x" + text[-2:], drawer_id=f"b{n}")
        for n, text in enumerate(texts)
    ]
    outcomes = write_drawers(store, [named, *first, renamed, *copies], policy, supersede=True)

    later = outcomes[ROUNDS + 1 :]
    assert [getattr(o, "superseded", None) for o in later[:1]] == ["named-1"]
    assert [[entry.drawer for entry in o.similar] for o in later[1:]] == [
        [f"a{n}"] for n in range(ROUNDS)
    ]
    stored = store.run_text(
        "MATCH (b:Drawer)-[s:SIMILAR_TO]->(a:Drawer) RETURN b.id AS b, a.id AS a, s.kind AS kind",
        {},
    )
    assert sorted((r["b"], r["a"], r["kind"]) for r in stored) == sorted(
        (f"b{n}", f"a{n}", "near") for n in range(ROUNDS)
    )


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
