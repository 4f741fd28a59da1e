"""Entity use cases against a real database (every backend available)."""

import itertools
from typing import Any

import pytest

from castlegraph.api.service.lexicon import Lexicon
from castlegraph.graph.drawers import palace
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.entities import entity_curation
from castlegraph.graph.entities.resolution import MentionInput, resolve_mentions
from castlegraph.graph.errors import UnknownDrawers
from castlegraph.graph.records import MentionResult
from castlegraph.resolver.entity_model import EntityView, make_mention
from tests.support.seeding import insert_entity

KNOWN_WORD = Lexicon()
POLICY = DedupPolicy()


def new_drawer(store: Any, content: str) -> str:
    return palace.write_drawer(store, NewDrawer("work", "notes", content), POLICY).drawer.id


def resolve(
    store: Any, drawer: str, *mentions: tuple[str, str], fuzzy: bool = True
) -> list[MentionResult]:
    inputs = [MentionInput(drawer, make_mention(name, kind)) for name, kind in mentions]
    return resolve_mentions(store, inputs, fuzzy=fuzzy, known_word=KNOWN_WORD)


def insert_legacy(store: Any, entity_id: str, name: str, kind: str) -> None:
    """An entity as an older version left it: same properties, no uniqueness of its key."""
    insert_entity(store, EntityView.of(entity_id, name, kind), "2023-01-01T00:00:00.000000Z")


def entities(store: Any) -> set[tuple[str, str, str]]:
    rows = store.run_text(
        "MATCH (e:Entity) RETURN e.kind AS kind, e.key AS key, e.name AS name", {}
    )
    return {(row["kind"], row["key"], row["name"]) for row in rows}


def mentions(store: Any) -> list[tuple[str, str, str]]:
    """(drawer id, entity name, observed name) of every MENTIONS edge, duplicates kept."""
    rows = store.run_text(
        "MATCH (d:Drawer)-[m:MENTIONS]->(e:Entity) RETURN d.id AS d, e.name AS e, m.name AS n", {}
    )
    return sorted((row["d"], row["e"], row["n"]) for row in rows)


def review_edges(store: Any) -> set[tuple[str, str]]:
    rows = store.run_text(
        "MATCH (a:Entity)-[:POSSIBLY_SAME_AS]->(b:Entity) RETURN a.name AS a, b.name AS b", {}
    )
    return {(row["a"], row["b"]) for row in rows}


# --- legacy duplicates -------------------------------------------------------------------------


@pytest.mark.parametrize("order", list(itertools.permutations([("e-1", "Ada"), ("e-2", "ADA")])))
def test_legacy_duplicates_resolve_to_the_lowest_id_whatever_the_insertion_order(
    store: Any, order: tuple[tuple[str, str], ...]
) -> None:
    for entity_id, name in order:
        insert_legacy(store, entity_id, name, "person")
    drawer = new_drawer(store, "a note about Ada")
    results = resolve(store, drawer, ("aDa", "person"), ("ada", "other"))
    assert [(r.entity.view.id, r.rule, r.created) for r in results] == [
        ("e-1", "normalized", False),
        ("e-1", "normalized", False),
    ]
    assert {e.view.id for e in entity_curation.find_entities(store, "ADA", "person")} == {
        "e-1",
        "e-2",
    }


@pytest.mark.parametrize("ids", [("e-1", "e-2"), ("e-2", "e-1")])
def test_legacy_duplicates_are_one_typo_candidate(store: Any, ids: tuple[str, str]) -> None:
    insert_legacy(store, ids[0], "Kubernetes", "tool")
    insert_legacy(store, ids[1], "KUBERNETES", "tool")
    [result] = resolve(store, new_drawer(store, "k8s"), ("Kubernets", "tool"))
    assert (result.entity.view.id, result.rule, result.created) == ("e-1", "typo", False)
    assert result.confidence == pytest.approx(0.9)


def test_an_exact_name_beats_the_lowest_id_among_legacy_duplicates(store: Any) -> None:
    insert_legacy(store, "e-1", "ADA", "person")
    insert_legacy(store, "e-2", "Ada", "person")
    [result] = resolve(store, new_drawer(store, "note"), ("Ada", "person"))
    assert (result.entity.view.id, result.rule) == ("e-2", "exact")


# --- the index ---------------------------------------------------------------------------------


def test_candidates_come_from_the_index_not_a_label_scan(falkordb_store: Any) -> None:
    """Read from FalkorDB's plan (Neo4j's planner uses the indexes the schema declares)."""
    store = falkordb_store
    from castlegraph.graph.backends.entity_key_params import probe_params  # noqa: PLC0415
    from castlegraph.graph.backends.queries import statement  # noqa: PLC0415

    for kinds in (None, ["tool", "person"]):  # the kind filter keeps the index
        plan = store.explain(
            statement("entities_by_probe_keys", "falkordb"),
            {**probe_params(["kubernets", "ubernets"], "falkordb"), "kinds": kinds},
        )
        assert "Index Scan" in plan, plan
        assert "Label Scan" not in plan, plan


def test_an_entity_is_found_by_each_spelling_key_after_an_alias(store: Any) -> None:
    drawer = new_drawer(store, "note")
    [created] = resolve(store, drawer, ("International Business Machines", "org"))
    entity_curation.add_alias(store, created.entity.view.id, "IBM")
    [by_alias] = resolve(store, drawer, ("ibm", "org"))
    assert (by_alias.entity.view.id, by_alias.rule) == (created.entity.view.id, "alias")
    [typo] = resolve(store, drawer, ("International Busness Machines", "org"))
    assert (typo.entity.view.id, typo.rule) == (created.entity.view.id, "typo")


# --- POSSIBLY_SAME_AS --------------------------------------------------------------------------


def test_a_review_link_goes_from_the_newer_entity_to_the_older(store: Any) -> None:
    drawer = new_drawer(store, "note")
    resolve(store, drawer, ("Maria", "person"))
    resolve(store, drawer, ("Mario", "person"), ("Mario", "person"), ("MARIO", "person"))
    assert review_edges(store) == {("Mario", "Maria")}
    [from_older] = entity_curation.review_candidates(store, _id(store, "Maria"))
    assert (from_older.entity.view.name, from_older.side) == ("Mario", "newer")
    [from_newer] = entity_curation.review_candidates(store, _id(store, "Mario"))
    assert (from_newer.entity.view.name, from_newer.side) == ("Maria", "older")


@pytest.mark.parametrize(
    ("first", "then"),
    [("Jönköping", "Jonkoping"), ("Jonkoping", "Jönköping"), ("Jönkoping", "Jonköping")],
)
def test_accents_dropped_in_two_places_get_a_review_link(store: Any, first: str, then: str) -> None:
    """Two substitutions (1 - 2/9 ≥ 0.75), met through the accent-folded index key."""
    drawer = new_drawer(store, "note")
    resolve(store, drawer, (first, "place"))
    [later] = resolve(store, drawer, (then, "place"))
    assert (later.rule, later.created) == ("new", True)  # never merged: accents are identity
    assert review_edges(store) == {(then, first)}


def test_accent_pairs_beyond_two_edits_stay_unlinked(store: Any) -> None:
    drawer = new_drawer(store, "note")
    resolve(store, drawer, ("Čéšká Lípá", "place"), ("Ceska Lipa", "place"))
    assert review_edges(store) == set()  # five substitutions: the folded key meets, the rule not


def test_review_links_within_one_batch_point_to_the_earlier_entity(store: Any) -> None:
    drawer = new_drawer(store, "note")
    names = ["Marta", "Maria", "Mario", "Marie", "Maria", "Mario"]
    resolve(store, drawer, *[(name, "person") for name in names])
    assert review_edges(store) == {
        ("Maria", "Marta"),
        ("Mario", "Maria"),
        ("Marie", "Maria"),
        ("Marie", "Mario"),
    }


def test_no_entity_is_linked_to_itself(store: Any) -> None:
    drawer = new_drawer(store, "note")
    names = ["Katarina", "Katerino", "Katerina", "Katerina", "KATERINA", "Katrin", "Katarina"]
    for name in names:
        resolve(store, drawer, (name, "person"))
    resolve(store, drawer, *[(name, "person") for name in reversed(names)])
    rows = store.run_text(
        "MATCH (a:Entity)-[l:POSSIBLY_SAME_AS]->(b:Entity) RETURN a.id AS a, b.id AS b", {}
    )
    assert rows, "the names were chosen to make review links"
    assert all(row["a"] != row["b"] for row in rows)
    assert len({(row["a"], row["b"]) for row in rows}) == len(rows)


def test_a_settled_link_keeps_its_direction_and_is_no_longer_pending(store: Any) -> None:
    drawer = new_drawer(store, "note")
    resolve(store, drawer, ("Marian", "person"))
    [marion] = resolve(store, drawer, ("Marion", "person"))
    older = entity_curation.settle_review(
        store, marion.entity.view.id, marion.possibly_same_as[0], "different"
    ).entity
    assert older.view.name == "Marian"
    assert review_edges(store) == {("Marion", "Marian")}
    assert entity_curation.review_candidates(store, older.view.id) == []
    [settled] = entity_curation.review_candidates(store, older.view.id, pending_only=False)
    assert (settled.entity.view.name, settled.status) == ("Marion", "different")


# --- MENTIONS ----------------------------------------------------------------------------------


def test_one_mentions_edge_per_drawer_and_entity(store: Any) -> None:
    first, second = new_drawer(store, "first note"), new_drawer(store, "second note")
    spellings = [("Ada Lovelace", "person"), ("ADA LOVELACE", "person"), ("ada lovelace", "other")]
    resolve(store, first, *spellings)
    resolve(store, first, *reversed(spellings))
    resolve(store, second, *spellings[1:])
    assert mentions(store) == sorted(
        [(first, "Ada Lovelace", "Ada Lovelace"), (second, "Ada Lovelace", "ADA LOVELACE")]
    )
    assert entities(store) == {("person", "ada lovelace", "Ada Lovelace")}


def test_linked_reports_whether_this_mention_made_the_edge(store: Any) -> None:
    drawer = new_drawer(store, "note")
    first = resolve(store, drawer, ("Grace Hopper", "person"), ("grace hopper", "person"))
    second = resolve(store, drawer, ("GRACE HOPPER", "person"))
    assert [(r.created, r.linked) for r in first + second] == [
        (True, True),
        (False, False),
        (False, False),
    ]


def test_an_unknown_drawer_refuses_the_whole_batch(store: Any) -> None:
    drawer = new_drawer(store, "note")
    inputs = [
        MentionInput(drawer, make_mention("Ada", "person")),
        MentionInput("nope", make_mention("Grace", "person")),
        MentionInput("nope", make_mention("Alan", "person")),
    ]
    with pytest.raises(UnknownDrawers) as raised:
        resolve_mentions(store, inputs, fuzzy=True, known_word=KNOWN_WORD)
    assert [d["index"] for d in raised.value.details] == [1, 2]
    assert entities(store) == set()
    assert mentions(store) == []


def test_provenance_is_stored_flat_on_the_edge(store: Any) -> None:
    drawer = new_drawer(store, "note")
    item = MentionInput(
        drawer,
        make_mention(" Ada ", "Person"),
        extractor="llm-v1",
        origin={"document": "doc-7", "chunk": 3},
        job_id="job-1",
        extracted_at="2024-05-01T12:00:00Z",
    )
    [result] = resolve_mentions(store, [item], fuzzy=True, known_word=KNOWN_WORD)
    [mention] = entity_curation.entity_mentions(store, result.entity.view.id)
    assert mention.drawer == drawer
    props = {k: v for k, v in mention.props.items() if k != "created_at"}
    assert props == {
        "name": "Ada",
        "rule": "new",
        "confidence": 1.0,
        "extractor": "llm-v1",
        "origin_document": "doc-7",
        "origin_chunk": 3,
        "job_id": "job-1",
        "extracted_at": "2024-05-01T12:00:00Z",
    }


def test_without_fuzzy_only_spelling_rules_apply(store: Any) -> None:
    drawer = new_drawer(store, "note")
    resolve(store, drawer, ("Kubernetes", "tool"), ("Maria", "person"), fuzzy=False)
    results = resolve(
        store,
        drawer,
        ("Kubernets", "tool"),
        ("Mario", "person"),
        ("KUBERNETES", "tool"),
        fuzzy=False,
    )
    assert [(r.rule, r.created, r.possibly_same_as) for r in results] == [
        ("new", True, ()),
        ("new", True, ()),
        ("normalized", False, ()),
    ]
    assert review_edges(store) == set()


def _id(store: Any, name: str) -> str:
    [row] = store.run_text("MATCH (e:Entity {name: $name}) RETURN e.id AS id", {"name": name})
    entity_id: str = row["id"]
    return entity_id


# --- names of punctuation only: their key is their raw text ------------------------------------


@pytest.mark.parametrize("name", ['"', "\\", '"\\"', "*?", "(:)", "- -", "~"])
def test_a_name_of_punctuation_only_resolves_and_converges(store: Any, name: str) -> None:
    """Such a key reaches the candidate index as it is written; on Neo4j that is full-text
    query syntax, which must be quoted, never parsed (a stray `"` failed the whole batch)."""
    drawer = new_drawer(store, "a note on punctuation")
    first, again = resolve(store, drawer, (name, "symbol"), (name, "symbol"))
    assert (first.rule, first.created) == ("new", True)
    assert (again.rule, again.created) == ("exact", False)
    assert again.entity.view.id == first.entity.view.id
    assert entities(store) == {("symbol", name.strip().lower(), name)}
