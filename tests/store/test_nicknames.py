"""Nickname pairs get a review link and never converge (design §5.3), on every backend, found
through the entity index: the database's own, the in-memory one, and a batch's own entities."""

from typing import Any

import pytest

from castlegraph.api.service.nicknames import load_nicknames
from castlegraph.graph.entities.bulk import load_entities
from castlegraph.graph.entities.resolution import MentionInput, dry_run, resolve_mentions
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.graph.records import MentionResult
from castlegraph.graph.schema import migrations
from castlegraph.resolver.entity_model import make_mention
from castlegraph.resolver.entity_rules import NameGuard
from tests.store.test_entities import KNOWN_WORD, new_drawer
from tests.support.statements import recording_statements

PEOPLE = NameGuard(frozenset[str]().__contains__, nicknames=load_nicknames())
PAIRS = [("Robert Smith", "Bob Smith"), ("Elizabeth", "Liz"), ("William Turner", "Bill Turner")]


def resolve(
    store: Any, drawer: str, names: list[str], kind: str, memory: EntityIndex | None
) -> list[MentionResult]:
    inputs = [MentionInput(drawer, make_mention(name, kind)) for name in names]
    return resolve_mentions(
        store, inputs, fuzzy=True, known_word=KNOWN_WORD, names=PEOPLE, memory=memory
    )


def links(store: Any) -> set[tuple[str, str, str, float]]:
    rows = store.run_text(
        "MATCH (a:Entity)-[l:POSSIBLY_SAME_AS]->(b:Entity) "
        "RETURN a.name AS newer, b.name AS older, l.reason AS reason, l.similarity AS similarity",
        {},
    )
    return {(r["newer"], r["older"], r["reason"], r["similarity"]) for r in rows}


def built_index(store: Any) -> EntityIndex:
    index = EntityIndex()
    assert index.build(store) is not None
    return index


@pytest.mark.parametrize("memory", [False, True], ids=["database index", "memory index"])
def test_a_nickname_pair_is_linked_in_both_orders_and_never_converges(
    store: Any, memory: bool
) -> None:
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    index = built_index(store) if memory else None
    expected = set()
    for name, nickname in PAIRS:
        # the reverse order under surnames of its own
        for first, then in ((name, nickname), (f"{nickname} Jr", f"{name} Jr")):
            [earlier] = resolve(store, drawer, [first], "person", index)
            [later] = resolve(store, drawer, [then], "person", index)
            assert later.created and later.rule == "new", (first, then)
            assert later.possibly_same_as == (earlier.entity.view.id,)
            expected.add((then, first, "nickname", 1.0))
            [again] = resolve(store, drawer, [then], "person", index)
            assert (again.rule, again.entity.view.id) == ("exact", later.entity.view.id)
    assert links(store) == expected


def test_a_nickname_pair_within_one_batch_is_linked(store: Any) -> None:
    drawer = new_drawer(store, "note")
    results = resolve(
        store, drawer, ["Robert Smith", "Bob Smith", "Liz", "Elizabeth"], "person", None
    )
    assert [r.rule for r in results] == ["new"] * 4
    assert links(store) == {
        ("Bob Smith", "Robert Smith", "nickname", 1.0),
        ("Elizabeth", "Liz", "nickname", 1.0),
    }


@pytest.mark.parametrize("memory", [False, True], ids=["database index", "memory index"])
def test_kinds_that_hold_no_people_get_no_nickname_link(store: Any, memory: bool) -> None:
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    load_entities(store, [("Robert Smith", "ship", []), ("Robert Smith", "person", [])])
    index = built_index(store) if memory else None
    [ship] = resolve(store, drawer, ["Bob Smith"], "ship", index)
    [unclassified] = resolve(store, drawer, ["Bill Smith"], "other", index)
    assert (ship.rule, ship.possibly_same_as) == ("new", ())
    assert (unclassified.rule, unclassified.possibly_same_as) == ("new", ())
    assert links(store) == set()


def test_the_memory_index_finds_the_pair_without_reading_the_database(store: Any) -> None:
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    load_entities(store, [("Robert Smith", "person", []), ("Robert Smith", "ship", [])])
    index = built_index(store)
    with recording_statements() as watching:
        [bob] = resolve(store, drawer, ["Bob Smith"], "person", index)
    assert links(store) == {("Bob Smith", "Robert Smith", "nickname", 1.0)}
    assert bob.possibly_same_as != ()
    assert "entities_by_ids" not in watching.names
    assert "entities_by_probe_keys" not in watching.names


def test_the_dry_run_proposes_the_nickname_link_and_writes_nothing(store: Any) -> None:
    load_entities(store, [("Robert Smith", "person", [])])
    for index in (None, built_index(store)):
        decision, _ = dry_run(
            store,
            make_mention("Bob Smith", "person"),
            fuzzy=True,
            known_word=KNOWN_WORD,
            names=PEOPLE,
            memory=index,
        )
        assert decision.decision == "new"
        assert [(x.entity.name, x.reason) for x in decision.possibly_same_as] == [
            ("Robert Smith", "nickname")
        ]
    assert links(store) == set()
