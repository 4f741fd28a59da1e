"""The in-memory candidate index against the database's own, on every backend (design §5.4).

The property: for random entities (built at start, or caught up on after) and random probe sets,
`fetch_remembered` returns exactly the entities, under exactly the probes, that the database's
key index returns through `fetch`. Then the sequence that keeps it exact: a second instance's
writes, an alias recorded through the API and a wiped graph are all seen before a decision.
Two `EntityIndex` objects on one store stand for two service instances: the index is the only
state an instance keeps between write units.
"""

import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castlegraph.graph.entities.bulk import load_entities
from castlegraph.graph.entities.entity_candidates import (
    EXACT,
    TWO_EDITS,
    depth_probes,
    fetch,
    fetch_remembered,
)
from castlegraph.graph.entities.entity_curation import add_alias, settle_review
from castlegraph.graph.entities.resolution import MentionInput, dry_run, resolve_mentions
from castlegraph.graph.errors import CastlegraphError, UnknownDrawers
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.graph.schema import migrations
from castlegraph.resolver.entity_keys import entity_key
from castlegraph.resolver.entity_model import make_mention
from castlegraph.resolver.entity_search_keys import spelling_keys, spellings_keys
from tests.store.test_entities import KNOWN_WORD, new_drawer

LETTERS = "aeiknorst 1é-"
names = (
    st.text(alphabet=LETTERS, min_size=1, max_size=12)
    .map(str.strip)  # names arrive trimmed (FalkorDB's (kind, name) constraint dies on others)
    .filter(lambda s: s.strip(" -"))
)
entity_rows = st.lists(
    st.tuples(names, st.sampled_from(["tool", "person"]), st.lists(names, max_size=2)),
    min_size=1,
    max_size=25,
    unique_by=lambda row: (row[0], row[1]),  # (kind, name) is unique
)


def found(rows: list[Any]) -> set[tuple[str, tuple[str, ...]]]:
    """(entity, the probes it stores). FalkorDB's trimmed stand-in probes can fetch an entity
    that stores none of the probes: `fetch` returns it under none, a candidate of nothing."""
    return {(entity.view.id, tuple(sorted(matched))) for entity, matched in rows if matched}


def built(store: Any, block_bits: int = 16) -> EntityIndex:
    index = EntityIndex(block_bits)
    assert index.build(store) is not None
    return index


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    at_start=entity_rows,
    later=entity_rows,
    probes=st.lists(names, min_size=1, max_size=6),
    block_bits=st.sampled_from([1, 3, 16]),
)
def test_memory_finds_what_the_database_index_finds(
    store: Any,
    at_start: list[tuple[str, str, list[str]]],
    later: list[tuple[str, str, list[str]]],
    probes: list[str],
    block_bits: int,
) -> None:
    store.wipe()
    later = [row for row in later if (row[0], row[1]) not in {(r[0], r[1]) for r in at_start}]
    load_entities(store, at_start)
    index = built(store, block_bits)  # these by the build (in blocks of 2 to 65,536 rows)
    load_entities(store, later)  # these through the catch-up, in the delta
    for depth in (EXACT, TWO_EDITS):
        wanted = set().union(*(depth_probes(entity_key(name), depth) for name in probes))

        def both(tx: Any, wanted: set[str] = wanted) -> tuple[set[Any], set[Any]]:
            assert index.catch_up(tx)
            remembered = fetch_remembered(tx, store.dialect, index, wanted)
            return found(fetch(tx, store.dialect, wanted)), found(remembered)

        from_database, from_memory = store.read(both, use_case="test")
        assert from_memory == from_database


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(stored=entity_rows, data=st.data())
def test_memory_decides_what_the_database_index_decides(
    store: Any, stored: list[tuple[str, str, list[str]]], data: st.DataObject
) -> None:
    """The memory index drops hits no rule can use before reading them (`may_pair`); the
    decisions stay those taken on everything the database's index finds. Mentions are stored
    names with up to three edits, so typos, review links and far hits all occur."""
    store.wipe()
    load_entities(store, stored)
    index = built(store)
    for _ in range(4):
        name = edited(data, data.draw(st.sampled_from([row[0] for row in stored])))
        for kind in ("tool", "other"):
            mention = make_mention(name, kind)
            [remembered, fetched] = [
                dry_run(store, mention, fuzzy=True, known_word=KNOWN_WORD, memory=memory)[0]
                for memory in (index, None)
            ]
            assert remembered == fetched


def edited(data: st.DataObject, name: str) -> str:
    """`name` with up to three edits (a letter replaced or removed), trimmed as the API trims."""
    for _ in range(data.draw(st.integers(0, 3))):
        at = data.draw(st.integers(0, len(name)))
        letter = data.draw(st.sampled_from(LETTERS))
        name = data.draw(
            st.sampled_from([name[:at] + letter + name[at + 1 :], name[:at] + name[at + 1 :]])
        )
    return name.strip(" -") or "x"


def resolve(store: Any, index: EntityIndex, drawer: str, *names: str) -> list[Any]:
    inputs = [MentionInput(drawer, make_mention(name, "tool")) for name in names]
    return resolve_mentions(store, inputs, fuzzy=True, known_word=KNOWN_WORD, memory=index)


def tool_keys(store: Any) -> list[str]:
    rows = store.run_text("MATCH (e:Entity {kind: 'tool'}) RETURN e.key AS key", {})
    return sorted(row["key"] for row in rows)


def test_an_instance_sees_what_another_wrote_before_it_decides(store: Any) -> None:
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    first, second = built(store), built(store)
    [created] = resolve(store, first, drawer, "PostgreSQL")
    [katarina] = resolve(store, first, drawer, "Katarina")
    again, typo, near = resolve(store, second, drawer, "POSTGRESQL", "PostgreSQ", "Katerino")
    assert (again.entity.view.id, again.rule) == (created.entity.view.id, "normalized")
    assert (typo.entity.view.id, typo.rule) == (created.entity.view.id, "typo")
    assert near.created and near.possibly_same_as == (katarina.entity.view.id,)
    [back] = resolve(store, first, drawer, "Katerino")  # the first instance catches up too
    assert (back.entity.view.id, back.rule) == (near.entity.view.id, "exact")
    assert tool_keys(store) == ["katarina", "katerino", "postgresql"]
    assert first.seen == second.seen


def test_an_alias_recorded_through_the_api_is_caught_up_on(store: Any) -> None:
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    index = built(store)
    [created] = resolve(store, index, drawer, "Kubernetes")
    add_alias(store, created.entity.view.id, "k8s cluster")
    [alias] = resolve(store, index, drawer, "K8s Cluster")
    assert (alias.entity.view.id, alias.rule) == (created.entity.view.id, "alias")
    assert tool_keys(store) == ["kubernetes"]


def test_a_settled_review_is_caught_up_on_though_both_entities_were_read(store: Any) -> None:
    """The index keeps the entities it read; settling a pair changes both (the newer is no
    candidate any more, the older takes its name as an alias), so neither may stay as read."""
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    index = built(store)
    [katarina] = resolve(store, index, drawer, "Katarina")
    [katerino] = resolve(store, index, drawer, "Katerino")
    [katerina] = resolve(store, index, drawer, "Katerina")  # reads both, keeps them
    assert set(katerina.possibly_same_as) == {katarina.entity.view.id, katerino.entity.view.id}
    settle_review(store, katerino.entity.view.id, katarina.entity.view.id, "same")
    [again] = resolve(store, index, drawer, "Katerino")
    assert (again.entity.view.id, again.rule) == (katarina.entity.view.id, "alias")


def test_an_undone_verdict_is_caught_up_on_though_older_rows_hold_the_alias(store: Any) -> None:
    """Undoing `same` removes the alias it recorded; the index's older rows of the entity still
    hold that alias's keys. A probe that meets only those rows must find the entity as it is
    now: `Katerinoo` is one edit from `Katerino` alone, not also from Katarina's lost alias."""
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    index = built(store)
    [katarina] = resolve(store, index, drawer, "Katarina")
    [katerino] = resolve(store, index, drawer, "Katerino")
    older, newer = katarina.entity.view.id, katerino.entity.view.id
    assert katerino.possibly_same_as == (older,)  # two edits: a review link
    assert settle_review(store, newer, older, "same").entity.view.aliases == ("Katerino",)
    resolve(store, index, drawer, "Katarina")  # the index takes in the alias
    undone = settle_review(store, older, newer, "different")
    assert (undone.undone, undone.entity.view.aliases) == ("same", ())
    [typo] = resolve(store, index, drawer, "Katerinoo")
    assert (typo.entity.view.id, typo.rule) == (newer, "typo")
    mention = make_mention("Katerinoo", "tool")
    remembered, fetched = (
        dry_run(store, mention, fuzzy=True, known_word=KNOWN_WORD, memory=memory)[0]
        for memory in (index, None)
    )
    assert remembered == fetched


def test_a_restart_rebuilds_from_the_database(store: Any) -> None:
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    index = built(store)
    results = resolve(store, index, drawer, "Terraform", "Ansible Tower", "Grafana")
    restarted = built(store)
    assert restarted.seen == index.seen
    ids = {r.entity.view.id for r in results}
    assert set(restarted.lookup({"terraform", "ansible tower", "grafana"})) == ids
    [again] = resolve(store, restarted, drawer, "Terraforn")
    assert (again.entity.view.id, again.rule) == (results[0].entity.view.id, "typo")


def test_a_wiped_graph_starts_the_index_over(store: Any) -> None:
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    index = built(store)
    [old] = resolve(store, index, drawer, "Terraform")
    store.wipe()
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    [new] = resolve(store, index, drawer, "Terraform")  # not the old one, which is gone
    assert new.created and new.entity.view.id != old.entity.view.id
    assert set(index.lookup({"terraform"})) == {new.entity.view.id}


def test_a_write_that_fails_adds_nothing(store: Any) -> None:
    migrations.migrate(store)
    index = built(store)
    seen = index.seen
    with pytest.raises(UnknownDrawers):
        resolve(store, index, str(uuid.uuid4()), "Terraform")  # no such drawer: refused
    assert index.seen == seen and index.lookup({"terraform"}) == {}


def test_a_hit_no_rule_can_use_is_not_read(store: Any) -> None:
    """`RFC 8975` stores its depth-2 deletion keys (a dense key), so the review probes of
    `RFC 7589` meet it, four edits away: the hit is weighed against the keys held in memory
    and dropped before any read. `RFC 8579`, two edits away, is read and linked."""
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    load_entities(store, [("RFC 8975", "tool", [])])
    index = built(store)
    [far] = index.lookup(depth_probes(entity_key("RFC 7589"), TWO_EDITS))  # a hit
    [unlinked] = resolve(store, index, drawer, "RFC 7589")
    assert unlinked.created and unlinked.possibly_same_as == ()
    assert index.cached([far]) == ({}, index.cached([])[1])  # never read
    [linked] = resolve(store, index, drawer, "RFC 8579")
    assert far in linked.possibly_same_as
    assert far in index.cached([far])[0]


def test_a_lookup_weighs_each_probe_against_the_mention_key_that_sent_it(store: Any) -> None:
    """Pairs of a row and a probe are weighed before hits are grouped (`lookup_spelled`):
    `RFC 8975` is met by the review probes of `RFC 7589` but four edits away, so it is no hit
    of that key; a probe that two mention keys sent is weighed later, against both."""
    migrations.migrate(store)
    load_entities(store, [("RFC 8975", "tool", []), ("RFC 8579", "tool", [])])
    index = built(store)
    mention = entity_key("RFC 7589")
    probes = depth_probes(mention, TWO_EDITS)
    far, near = (index.lookup({entity_key(name)}) for name in ("RFC 8975", "RFC 8579"))
    assert index.lookup(probes).keys() == far.keys() | near.keys()  # both stored under them
    hits, sent = index.lookup_spelled({mention: probes})
    assert hits.keys() == near.keys()
    assert all(sent[probe] == [mention] for probe in hits[next(iter(near))][0])
    other = entity_key("RFC 8975")
    hits, sent = index.lookup_spelled({mention: probes, other: probes})
    assert hits.keys() == far.keys() | near.keys()
    assert all(
        sorted(sent[probe]) == sorted([mention, other]) for probe in hits[next(iter(far))][0]
    )


def test_a_hit_of_a_kind_no_mention_is_compared_with_is_not_read(store: Any) -> None:
    """The index keeps each row's kind: a `tool` mention is never compared with a `person`
    (design §5.2), so the person found under the very same key is dropped before any read;
    an unclassified (`other`) mention of the name may match any kind, so then it is read."""
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    load_entities(store, [("Ada Lovelace", "person", [])])
    index = built(store)
    [person] = index.lookup({entity_key("Ada Lovelace")})
    [tool] = resolve(store, index, drawer, "Ada Lovelace")
    assert tool.created and tool.entity.view.kind == "tool"
    assert index.cached([person]) == ({}, index.cached([])[1])  # never read
    inputs = [MentionInput(drawer, make_mention("Ada Lovelace", "other"))]
    [unclassified] = resolve_mentions(
        store, inputs, fuzzy=True, known_word=KNOWN_WORD, memory=index
    )
    assert not unclassified.created
    assert person in index.cached([person])[0]


def test_each_respelling_indexes_the_keys_of_its_new_spelling_only(store: Any) -> None:
    """An entity that gains a spelling is added under a new row that stores only the keys of
    that spelling: after N respellings (typos resolved to it, aliases a curator adds) the index
    holds the keys of N + 1 spellings, where re-adding every spelling's keys each time held
    those of (N + 1)(N + 2) / 2. The entity is still found, whole, under each spelling."""
    migrations.migrate(store)
    drawer = new_drawer(store, "note")
    index = built(store)
    [created] = resolve(store, index, drawer, "Zorbel Quennit")
    entity_id = created.entity.view.id
    typos = [f"Zorbel Quennit{letter}" for letter in "abcdefghijkl"]
    for typo in typos:  # one batch each: the unit's own write (`written`)
        [resolved] = resolve(store, index, drawer, typo)
        assert (resolved.entity.view.id, resolved.rule) == (entity_id, "typo")
    curated = [f"Quennit Zorbel {n}" for n in range(12)]
    for alias in curated:  # through the API: taken in by the next catch-up
        add_alias(store, entity_id, alias)
        assert store.read(index.catch_up, use_case="test")
    [again] = resolve(store, index, drawer, curated[-1])
    assert (again.entity.view.id, again.rule) == (entity_id, "alias")
    spellings = [entity_key(name) for name in ("Zorbel Quennit", *typos, *curated)]
    assert index.entries == sum(len(spelling_keys(key)) for key in spellings)
    whole = set(spellings_keys(spellings))
    assert 2 * len(whole) > index.entries  # the spellings share most keys: far below N² / 2
    assert set(index.lookup(set(spellings))) == {entity_id}
    rows = {i: row for i, (_, row) in index.lookup_rows({spellings[0]}).items()}
    [entity] = index.entities(rows).values()
    assert entity.view.alias_keys == tuple(spellings[1:])


def views_found(rows: list[Any]) -> set[tuple[str, tuple[str, ...], Any]]:
    """`found`, each entity as it was handed out: a stale row would show an older view."""
    return {(e.view.id, tuple(sorted(matched)), e.view) for e, matched in rows if matched}


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(stored=entity_rows, data=st.data())
def test_memory_finds_what_the_database_finds_after_respellings(
    store: Any, stored: list[tuple[str, str, list[str]]], data: st.DataObject
) -> None:
    """Entities respelled again and again after the build (typos resolved to them, which
    record aliases; aliases a curator adds; reviews settled as the same) are indexed under a
    row per respelling that stores only the new spellings' keys. Whichever of its rows a probe
    meets, the index hands out the entity as the database holds it, under the probes the
    database finds it by, and decides as the database's index does."""
    store.wipe()
    migrations.migrate(store)
    load_entities(store, stored)
    drawer = new_drawer(store, "note")
    index = built(store)
    ids = [row["id"] for row in store.run_text("MATCH (e:Entity) RETURN e.id AS id", {})]
    for _ in range(data.draw(st.integers(1, 8))):
        action = data.draw(st.sampled_from(["typo", "alias", "same"]))
        name = data.draw(names)
        try:
            if action == "typo":
                base = data.draw(st.sampled_from([row[0] for row in stored]))
                at = data.draw(st.integers(0, len(base)))
                resolve(store, index, drawer, (base[:at] + name[:1] + base[at:]).strip(" -") or "x")
            elif action == "alias":
                add_alias(store, data.draw(st.sampled_from(ids)), name)
            else:
                older, newer = data.draw(st.lists(st.sampled_from(ids), min_size=2, max_size=2))
                settle_review(store, newer, older, "same")
        except CastlegraphError:
            pass  # a taken alias, a pair with no review link: nothing written
    probes = data.draw(st.lists(names, min_size=1, max_size=6))
    for depth in (EXACT, TWO_EDITS):
        wanted = set().union(*(depth_probes(entity_key(name), depth) for name in probes))

        def both(tx: Any, wanted: set[str] = wanted) -> tuple[set[Any], set[Any]]:
            assert index.catch_up(tx)
            remembered = fetch_remembered(tx, store.dialect, index, wanted)
            return views_found(fetch(tx, store.dialect, wanted)), views_found(remembered)

        from_database, from_memory = store.read(both, use_case="test")
        assert from_memory == from_database
    for name in probes:
        for kind in ("tool", "other"):
            mention = make_mention(name, kind)
            remembered, fetched = (
                dry_run(store, mention, fuzzy=True, known_word=KNOWN_WORD, memory=memory)[0]
                for memory in (index, None)
            )
            assert remembered == fetched
