"""Candidates decided from memory, on every backend (design §5.4 *Decided from memory*).

The in-memory index keeps each row's whole entity (name, aliases, kind, keys, creation time,
whom it was settled as), so a write unit reads no candidate from the database. The property:
for random entities, built at start or caught up on after, respelled through the API and
settled as the same as another, every entity the index hands out is the one the database
holds, and every decision taken from memory is the one taken on the database's own index.
"""

import uuid
from contextlib import suppress
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castlegraph.graph.entities.bulk import load_entities
from castlegraph.graph.entities.entity_curation import add_alias, settle_review
from castlegraph.graph.entities.resolution import MentionInput, dry_run, resolve_mentions
from castlegraph.graph.errors import AliasTaken
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.graph.records import Entity
from castlegraph.graph.schema import migrations
from castlegraph.resolver.entity_model import make_mention
from tests.store.test_entities import KNOWN_WORD, new_drawer
from tests.support.statements import recording_statements

LETTERS = "aeiknorst 1é-\x1f"
"""`\\x1f` separates a row's keys in memory: an entity named with it is kept keys-less and
read by id, and must still come out the same."""
names = (
    st.text(alphabet=LETTERS, min_size=1, max_size=10)
    .map(str.strip)  # names arrive trimmed (FalkorDB's (kind, name) constraint dies on others)
    .filter(lambda s: s.strip(" -\x1f"))
)
entity_rows = st.lists(
    st.tuples(names, st.sampled_from(["tool", "person"]), st.lists(names, max_size=2)),
    min_size=2,
    max_size=12,
    unique_by=lambda row: (row[0], row[1]),
)


LINK = """MATCH (newer:Entity {id: $newer}), (older:Entity {id: $older})
CREATE (newer)-[:POSSIBLY_SAME_AS {similarity: 0.9, distance: 1, reason: 'two_edits',
  status: 'pending', created_at: '2026-01-01T00:00:00.000000Z'}]->(older)"""


def every_entity(store: Any) -> dict[str, Entity]:
    rows = store.run_text("MATCH (e:Entity) RETURN properties(e) AS props", {})
    return {row["props"]["id"]: Entity.from_props(row["props"]) for row in rows}


def from_memory(store: Any, index: EntityIndex, ids: list[str]) -> dict[str, Entity]:
    def work(tx: Any) -> dict[str, Entity]:
        assert index.catch_up(tx)
        rows = {i: row for i, (_, row) in index.lookup_rows(_keys_of(store, ids)).items()}
        return index.entities({i: rows[i] for i in ids if i in rows})

    result: dict[str, Entity] = store.read(work, use_case="test")
    return result


def _keys_of(store: Any, ids: list[str]) -> set[str]:
    rows = store.run_text("MATCH (e:Entity) WHERE e.id IN $ids RETURN e.key AS key", {"ids": ids})
    return {row["key"] for row in rows}


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(at_start=entity_rows, later=entity_rows, data=st.data())
def test_memory_hands_out_the_entities_the_database_holds(
    store: Any,
    at_start: list[tuple[str, str, list[str]]],
    later: list[tuple[str, str, list[str]]],
    data: st.DataObject,
) -> None:
    store.wipe()
    migrations.migrate(store)
    later = [row for row in later if (row[0], row[1]) not in {(r[0], r[1]) for r in at_start}]
    load_entities(store, at_start)
    index = EntityIndex(1)
    assert index.build(store) is not None
    load_entities(store, later)  # caught up on, not built
    held = every_entity(store)
    ids = sorted(held)
    with suppress(AliasTaken):  # another entity's spelling is refused
        add_alias(store, data.draw(st.sampled_from(ids)), data.draw(names), index)
    newer, older = data.draw(st.permutations(ids))[:2]
    store.run_text(LINK, {"newer": newer, "older": older})
    settle_review(store, newer, older, "same")  # the newer one is settled: no candidate
    if data.draw(st.booleans()):  # undone: the alias it recorded goes again
        settle_review(store, older, newer, "different")
    held = every_entity(store)
    kept = from_memory(store, index, ids)
    assert kept == {i: held[i] for i in kept}
    assert set(ids) - set(kept) == {i for i, e in held.items() if _separated(e)}
    for entity in held.values():
        for kind in (entity.view.kind, "other"):
            mention = make_mention(entity.view.name[:-1] or entity.view.name, kind)
            remembered, fetched = (
                dry_run(store, mention, fuzzy=True, known_word=KNOWN_WORD, memory=memory)[0]
                for memory in (index, None)
            )
            assert remembered == fetched


def _separated(entity: Entity) -> bool:
    texts = [entity.view.name, *entity.view.aliases, *entity.view.alias_keys, entity.view.key]
    return any("\x1f" in text for text in texts)


def test_a_batch_reads_no_candidate_from_the_database(store: Any) -> None:
    """Candidates, typo targets and review links all come from memory: the unit's statements
    are the lock's and drawers' checks, the catch-up, the existing mentions and the write."""
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    load_entities(store, [("Katarina", "person", ["Kata"]), ("PostgreSQL", "tool", [])])
    index = EntityIndex()
    assert index.build(store) is not None
    with recording_statements() as watching:
        inputs = [
            MentionInput(drawer, make_mention(name, kind))
            for name, kind in [("Katerina", "person"), ("Postgresql", "tool"), ("Kata", "person")]
        ]
        typo, same, alias = resolve_mentions(
            store, inputs, fuzzy=True, known_word=KNOWN_WORD, memory=index
        )
    assert (typo.rule, same.rule, alias.rule) == ("typo", "normalized", "alias")
    assert typo.entity.view.aliases == ("Kata", "Katerina")
    assert typo.entity.created_at == alias.entity.created_at != ""
    assert "entities_by_ids" not in watching.names
    assert "write_resolutions" in watching.names


def test_an_entity_named_with_the_separator_is_read_by_id(store: Any) -> None:
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    load_entities(store, [("Tool\x1fKit", "tool", [])])
    index = EntityIndex()
    assert index.build(store) is not None
    with recording_statements() as watching:
        [again] = resolve_mentions(
            store,
            [MentionInput(drawer, make_mention("Tool\x1fKit", "tool"))],
            fuzzy=True,
            known_word=KNOWN_WORD,
            memory=index,
        )
    assert again.rule == "exact" and not again.created
    assert uuid.UUID(again.entity.view.id)
    assert "entities_by_ids" in watching.names


def test_a_counter_another_instance_creates_first_keeps_what_the_index_was_built_with(
    store: Any,
) -> None:
    """Entities loaded without the entity sequence (by another tool, or before it existed):
    another instance's first write creates the counter. That is not a wiped graph, so this
    instance's index keeps the entities it was built with, and finds them."""
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    load_entities(store, [("Katarina Novak", "person", [])])
    store.run_text("MATCH (c:Meta {name: 'entity_seq'}) DETACH DELETE c", {})
    store.run_text("MATCH (e:Entity) REMOVE e.seq", {})
    index = EntityIndex()
    assert index.build(store) is not None
    [elsewhere] = resolve_mentions(  # another instance: its unit creates the counter
        store, [MentionInput(drawer, make_mention("PostgreSQL", "tool"))], fuzzy=True,
        known_word=KNOWN_WORD,
    )  # fmt: skip
    assert elsewhere.created
    [here] = resolve_mentions(
        store, [MentionInput(drawer, make_mention("Katarina Novak", "person"))], fuzzy=True,
        known_word=KNOWN_WORD, memory=index,
    )  # fmt: skip
    assert (here.rule, here.created) == ("exact", False)
    [postgres] = resolve_mentions(
        store, [MentionInput(drawer, make_mention("Postgresql", "tool"))], fuzzy=True,
        known_word=KNOWN_WORD, memory=index,
    )  # fmt: skip
    assert (postgres.rule, postgres.entity.view.id) == ("normalized", elsewhere.entity.view.id)
