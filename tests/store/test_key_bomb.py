"""A key shared by many kinds (the key bomb) on every backend (design §5.2, §5.4, §8.1).

One name stored under 2,000 kinds: a mention of one kind reads none of the other kinds'
entries from the in-memory index (its `examined` count is no higher than on a graph without
them), and every answer is the one the database's own index gives, the `other` mention's too
(it is compared with every kind: a specific kind before `other`, then the lowest id).
"""

from typing import Any

from castlegraph.graph.entities.bulk import load_entities
from castlegraph.graph.entities.resolution import MentionInput, dry_run, resolve_mentions
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.graph.schema import migrations
from castlegraph.resolver.entity_model import Decision, make_mention
from tests.store.test_entities import KNOWN_WORD, new_drawer

NAME = "Ada Lovelace"
SHARING = 2_000
STORED = [
    (NAME, "person", []),
    (NAME, "other", []),
    ("Ada Lovelac", "tool", []),
    ("Ada Lovelace Jr", "person", ["Ada King"]),
]
MENTIONS = [
    (NAME, "person"),
    ("ADA LOVELACE", "person"),
    (NAME, "other"),
    ("Ada Lovelac", "other"),
    ("Ada Lovelacx", "tool"),
    ("Ada Lovelacee", "person"),
    (NAME, "kind 7"),
    ("Ada Lovelace!", "kind 1999"),
    (NAME, "never seen"),
    ("Ada King", "other"),
    ("Adda Lovelace", "other"),
]


def built(store: Any) -> EntityIndex:
    index = EntityIndex()
    assert index.build(store) is not None
    return index


def answer(decision: Decision) -> tuple[object, ...]:
    entity = decision.entity.id if decision.entity is not None else None
    links = tuple((link.entity.id, link.similarity) for link in decision.possibly_same_as)
    return decision.decision, decision.rule, decision.confidence, entity, links


def test_answers_with_many_kinds_sharing_a_key_are_the_database_indexs(store: Any) -> None:
    migrations.migrate(store)
    load_entities(store, [*STORED, *((NAME, f"kind {n}", []) for n in range(SHARING))])
    index = built(store)
    for name, kind in MENTIONS:
        mention = make_mention(name, kind)
        remembered, _ = dry_run(store, mention, fuzzy=True, known_word=KNOWN_WORD, memory=index)
        database, _ = dry_run(store, mention, fuzzy=True, known_word=KNOWN_WORD)
        assert answer(remembered) == answer(database), (name, kind)
    other, _ = dry_run(store, make_mention(NAME, "other"), fuzzy=True, known_word=KNOWN_WORD)
    rows = store.run_text(
        "MATCH (e:Entity {key: 'ada lovelace'}) WHERE e.kind <> 'other' RETURN e.id AS id", {}
    )
    assert other.entity is not None and other.entity.id == min(row["id"] for row in rows)


def _batch_examined(store: Any, sharing: int) -> tuple[int, list[Any]]:
    """Index entries read by a batch of `NAME` under 200 new kinds and as a person, with
    `sharing` stored entities of other kinds under its key."""
    store.wipe()
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    load_entities(store, [*STORED, *((NAME, f"kind {n}", []) for n in range(sharing))])
    index = built(store)
    kinds = [f"new {n}" for n in range(200)] + ["person"]
    inputs = [MentionInput(drawer, make_mention(NAME, kind)) for kind in kinds]
    results = resolve_mentions(store, inputs, fuzzy=True, known_word=KNOWN_WORD, memory=index)
    return index.examined, results


def test_a_batch_of_one_key_under_new_kinds_reads_none_of_the_kinds_sharing_it(
    store: Any,
) -> None:
    alone, _ = _batch_examined(store, 0)
    crowded, results = _batch_examined(store, SHARING)
    assert crowded <= alone  # not SHARING entries more per probe
    *new, person = results
    assert all(r.created and r.rule == "new" and r.possibly_same_as == () for r in new)
    assert len({r.entity.view.id for r in new}) == len(new)
    assert not person.created and person.rule == "exact" and person.entity.view.kind == "person"
