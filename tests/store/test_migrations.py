"""Migrations on a real database: recorded, idempotent, deriving keys for legacy data."""

import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import pytest

from castlegraph.api.service.lexicon import Lexicon
from castlegraph.graph.backends.entity_key_params import index_props
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.drawers.palace import write_drawer
from castlegraph.graph.entities.resolution import MentionInput, resolve_mentions
from castlegraph.graph.indexes.drawer_index import DrawerIndex
from castlegraph.graph.records import Entity
from castlegraph.graph.review.duplicate_pairs import rebuild_pending_pairs
from castlegraph.graph.review.duplicates import (
    PENDING_FLOOR,
    Scope,
    duplicate_clusters,
    hygiene,
    record_verdict,
)
from castlegraph.graph.review.embeddings import set_embedding
from castlegraph.graph.schema import migrations
from castlegraph.graph.schema.migration_steps import (
    attach_drawers_to_rooms,
    complete_entity_index_keys,
    derive_keys,
    drop_closed_drawer_terms,
    move_drawer_sequence,
    number_entities,
    refresh_entity_index_keys,
    reindex_anchor_terms,
)
from castlegraph.resolver.drawers import TERMS_SCHEME, anchor_terms, index_terms
from castlegraph.resolver.entity_keys import deletion_keys
from castlegraph.resolver.entity_model import EntityView, make_mention
from castlegraph.resolver.entity_search_keys import stored_keys
from castlegraph.resolver.text import content_hash, fingerprint, normalize_text
from tests.support.holding import holding_first

LEGACY = """
CREATE (:Drawer {id: 'd1', wing: 'w', room: 'r', content: 'Legacy note about Ada', kind: 'note',
                 created_at: '2020-01-01T00:00:00.000000Z'}),
       (:Drawer {id: 'd2', wing: 'w', room: 'r', content: 'Another legacy note', kind: 'note',
                 created_at: '2020-01-02T00:00:00.000000Z'}),
       (:Entity {id: 'e-2', name: 'ADA', kind: 'person', aliases: ['Ada L.'],
                 created_at: '2020-01-01T00:00:00.000000Z'}),
       (:Entity {id: 'e-1', name: 'Ada', kind: 'person', aliases: [],
                 created_at: '2020-01-01T00:00:00.000000Z'})
"""


def rows(store: Any, text: str) -> list[dict[str, Any]]:
    return store.run_text(text, {})


def test_migrations_are_recorded_once(store: Any) -> None:
    first = migrations.migrate(store)
    assert [m.version for m in first] == list(range(1, 15))
    assert migrations.migrate(store) == []
    assert [m.version for m in migrations.applied(store)] == list(range(1, 15))
    assert migrations.pending(store) == []


def test_version_3_derives_keys_and_merges_nothing(store: Any) -> None:
    rows(store, LEGACY)
    applied = {m.version: m.changed for m in migrations.migrate(store)}
    # 3 already derives today's keys
    assert applied == {
        1: 0,
        2: 2,
        3: 4,
        4: 0,
        5: 0,
        6: 0,
        7: 0,
        8: 0,
        9: 0,
        10: 0,
        11: 0,
        12: 0,
        13: 0,
        14: 2,
    }
    drawer = rows(store, "MATCH (d:Drawer {id: 'd1'}) RETURN properties(d) AS p")[0]["p"]
    normal = normalize_text("Legacy note about Ada")
    assert drawer["content_hash"] == content_hash("Legacy note about Ada")
    assert drawer["fingerprint"] == fingerprint(normal)
    assert drawer["norm_len"] == len(normal)
    assert drawer["terms"]
    entities = rows(store, "MATCH (e:Entity) RETURN e.id AS id, e.key AS key, e.alias_keys AS ak")
    assert {(e["id"], e["key"], tuple(e["ak"])) for e in entities} == {
        ("e-1", "ada", ()),
        ("e-2", "ada", ("ada l",)),
    }
    palace = rows(
        store, "MATCH (:Wing {name: 'w'})-[:HAS_ROOM]->(:Room)-[:HAS_DRAWER]->(d) RETURN d.id AS id"
    )
    assert {row["id"] for row in palace} == {"d1", "d2"}
    assert (
        rows(store, "MATCH ()-[l:SIMILAR_TO|POSSIBLY_SAME_AS]->() RETURN count(l) AS n")[0]["n"]
        == 0
    )
    assert derive_keys(store) == 0
    assert attach_drawers_to_rooms(store) == 0


def test_new_sightings_converge_on_the_lowest_id_of_legacy_duplicates(store: Any) -> None:
    rows(store, LEGACY)
    migrations.migrate(store)
    mention = MentionInput("d1", make_mention("ada", "person"))
    [result] = resolve_mentions(store, [mention], fuzzy=True, known_word=Lexicon())
    assert (result.entity.view.id, result.rule) == ("e-1", "normalized")
    count = rows(store, "MATCH (e:Entity) RETURN count(e) AS n")[0]["n"]
    assert count == 2


def test_version_4_reindexes_drawers_under_single_word_terms(store: Any) -> None:
    migrations.migrate(store)
    old = "Rotate the staging certificates before the audit on Friday"
    written = write_drawer(store, NewDrawer("w", "r", old), DedupPolicy())
    single_words = ["a1", "b2"]  # what a drawer written before version 4 carries
    store.run_text(
        "MATCH (d:Drawer {id: $id}) SET d.terms = $terms, d.terms_text = 'a1 b2' "
        "REMOVE d.terms_scheme",
        {"id": written.drawer.id, "terms": single_words},
    )
    assert reindex_anchor_terms(store) == 1
    drawer = rows(store, "MATCH (d:Drawer) RETURN properties(d) AS p")[0]["p"]
    assert drawer["terms"] == index_terms("w", "r", normalize_text(old))
    assert drawer["terms_scheme"] == TERMS_SCHEME
    assert reindex_anchor_terms(store) == 0
    retyped = write_drawer(store, NewDrawer("w", "r", old.replace("audit", "adit")), DedupPolicy())
    assert [s.drawer for s in retyped.similar] == [written.drawer.id]  # found by the new terms


@pytest.mark.parametrize("scheme", ["word-pairs", "word-pairs+5-gram-bands"])
def test_versions_7_and_11_reindex_bands_of_drawers_stored_under_an_older_scheme(
    store: Any, scheme: str
) -> None:
    """A drawer stored before version 7 carries its word pairs only: a near copy with a typo in
    every pair missed it; one stored before version 11 has its bands in its own length bucket
    alone, where a write no longer looks. After the migration it is found again, and closed
    drawers stay unindexed."""
    migrations.migrate(store)
    old = write_drawer(store, NewDrawer("w", "r", "the storage engine"), DedupPolicy()).drawer
    closed = write_drawer(store, NewDrawer("w", "r", "the backup runs nightly"), DedupPolicy())
    pairs = anchor_terms("w", "r", "the storage engine")
    store.run_text(
        "MATCH (d:Drawer {id: $id}) SET d.terms = $terms, d.terms_text = $text, "
        "d.terms_scheme = $scheme",
        {"id": old.id, "terms": pairs, "text": " ".join(pairs), "scheme": scheme},
    )
    store.run_text(
        "MATCH (d:Drawer {id: $id}) SET d.valid_to = '2025-01-01T00:00:00.000000Z', "
        "d.terms = null, d.terms_text = null, d.terms_scheme = $scheme",
        {"id": closed.drawer.id, "scheme": scheme},
    )
    assert reindex_anchor_terms(store) == 1
    stored = store.run_text("MATCH (d:Drawer {id: $id}) RETURN d.terms_scheme AS s", {"id": old.id})
    assert stored[0]["s"] == TERMS_SCHEME
    still_closed = store.run_text(
        "MATCH (d:Drawer {id: $id}) RETURN d.terms AS t", {"id": closed.drawer.id}
    )
    assert still_closed[0]["t"] is None
    assert reindex_anchor_terms(store) == 0
    copy = write_drawer(store, NewDrawer("w", "r", "the sotrage engine"), DedupPolicy())
    assert [s.drawer for s in copy.similar] == [old.id]


def test_version_5_adds_the_accent_folded_keys_to_entities_stored_without_them(
    falkordb_store: Any,
) -> None:
    """Reads the keys as FalkorDB stores them (an array; Neo4j keeps them as text)."""
    store = falkordb_store
    migrations.migrate(store)
    drawer = write_drawer(store, NewDrawer("w", "r", "Trip notes"), DedupPolicy()).drawer.id
    names = ["Jönköping", "Göteborg", "Stockholm"] + [f"Town {i:04d}" for i in range(1500)]
    inputs = [MentionInput(drawer, make_mention(name, "place")) for name in names]
    resolve_mentions(store, inputs, fuzzy=True, known_word=Lexicon())
    store.run_text(  # as version 4 left them: deletion keys without the folded forms
        "MATCH (e:Entity) WHERE e.name IN ['Jönköping', 'Göteborg'] "
        "SET e.dkeys = [k IN e.dkeys WHERE k <> 'jonkoping' AND k <> 'goteborg']",
        {},
    )
    assert refresh_entity_index_keys(store) == 2  # over two pages; Stockholm has no accents
    found = rows(store, "MATCH (e:Entity {name: 'Jönköping'}) RETURN e.dkeys AS keys")
    view = EntityView.of("x", "Jönköping", "place")
    assert found[0]["keys"] == stored_keys(view)
    assert "jonkoping" in found[0]["keys"]
    assert refresh_entity_index_keys(store) == 0
    [later] = resolve_mentions(
        store,
        [MentionInput(drawer, make_mention("Jonkoping", "place"))],
        fuzzy=True,
        known_word=Lexicon(),
    )
    assert later.rule == "new" and len(later.possibly_same_as) == 1


def test_version_6_drops_the_anchor_terms_of_closed_drawers(store: Any) -> None:
    migrations.migrate(store)
    old = write_drawer(store, NewDrawer("w", "r", "The backup runs nightly at two"), DedupPolicy())
    kept = write_drawer(store, NewDrawer("w", "r", "The cache is warmed at six"), DedupPolicy())
    store.run_text(  # closed as a version before 6 closed drawers: terms kept
        "MATCH (d:Drawer {id: $id}) SET d.valid_to = '2025-01-01T00:00:00.000000Z'",
        {"id": old.drawer.id},
    )
    assert drop_closed_drawer_terms(store) == 1
    found = rows(store, "MATCH (d:Drawer) RETURN d.id AS id, d.terms AS terms ORDER BY id")
    assert {row["id"]: row["terms"] is None for row in found} == {
        old.drawer.id: True,
        kept.drawer.id: False,
    }
    assert drop_closed_drawer_terms(store) == 0


def test_version_13_groups_the_vectors_stored_before_groups_were_kept(store: Any) -> None:
    """Vectors written as a version before 13 wrote them (drawer-to-drawer DUPLICATE_CANDIDATE
    edges, no vector groups): the migration drops the edges, puts drawers sharing a vector in
    one group, pairs the groups at the floor, and readers leave a judged pair out."""
    migrations.migrate(store)
    ids = [
        write_drawer(store, NewDrawer("w", "r", f"legacy vector {i}"), DedupPolicy()).drawer.id
        for i in range(5)
    ]
    vectors = [[1.0, 0.0, 0.0, 0.0], [0.99, 0.1, 0.0, 0.0], [0.98, 0.0, 0.2, 0.0], [0, 1.0, 0, 0]]
    for drawer, vector in zip(ids, [*vectors, vectors[0]], strict=True):
        set_embedding(store, drawer, vector, None)
    kept = pending(store)
    store.run_text("MATCH (g:VectorGroup) DETACH DELETE g", {})
    store.run_text("MATCH (d:Drawer) SET d.vector_hash = null", {})
    store.run_text(
        "MATCH (a:Drawer {id: $a}), (b:Drawer {id: $b}) CREATE (a)-[:DUPLICATE_CANDIDATE]->(b)",
        {"a": ids[0], "b": ids[3]},
    )
    record_verdict(store, ids[1], ids[2], "supplement")
    assert len(kept) == 6 and pending(store) == set()
    assert rebuild_pending_pairs(store) == 3  # pairs of the 3 distinct vectors alike
    assert pending(store) == kept - {tuple(sorted((ids[1], ids[2])))}
    assert rebuild_pending_pairs(store) == 3  # again: the same groups, nothing added
    assert len(pending(store)) == 5
    assert rows(store, "MATCH ()-[c:DUPLICATE_CANDIDATE]->() RETURN count(c) AS n") == [{"n": 0}]
    assert rows(store, "MATCH (g:VectorGroup) RETURN count(g) AS n") == [{"n": 4}]


def pending(store: Any) -> set[tuple[str, str]]:
    return {
        (pair.a, pair.b)
        for cluster in duplicate_clusters(store, Scope(), PENDING_FLOOR)
        for pair in cluster.pairs
    }


def test_the_migration_lease_is_taken_by_one_of_two_starters(store: Any) -> None:
    """Two instances starting together: the second asks while the first's write unit still
    holds the lease uncommitted. It must wait for that commit and find the lease taken; reading
    the lease without locking it first let both take it on Neo4j."""
    migrations.migrate(store)  # the lease's node exists, free: found, not created, by both

    def take(holder: str) -> bool:
        return bool(store.write(partial(migrations._take_lease, holder), use_case="lease"))

    with holding_first("acquire_lease") as hold, ThreadPoolExecutor(max_workers=2) as pool:
        first = pool.submit(take, "first")
        assert hold.holding.wait(timeout=30)
        second = pool.submit(take, "second")
        time.sleep(0.5)  # the second unit reaches the lease while the first has not committed
        hold.release.set()
        assert (first.result(timeout=60), second.result(timeout=60)) == (True, False)


def test_the_migration_lease_is_renewed_while_a_long_migration_runs(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A migration that outlasts the lease: the starter running it renews the lease, so a
    second starter asking after the lease's first term still finds it held (and once the run
    ends, free). A lease that was never renewed let the second starter run them too."""
    migrations.migrate(store)
    monkeypatch.setattr(migrations, "LEASE_SECONDS", 1.0)
    asked: list[bool] = []

    def slow(store: Any) -> int:
        time.sleep(2.5)  # two and a half lease terms
        asked.append(store.write(partial(migrations._take_lease, "second"), use_case="lease"))
        return 0

    monkeypatch.setattr(migrations, "MIGRATIONS", (migrations.Migration(99, "slow", slow),))
    assert [m.version for m in migrations.migrate(store)] == [99]
    assert asked == [False]
    assert store.write(partial(migrations._take_lease, "second"), use_case="lease") is True


def insert_with_keys_before_version_8(store: Any, view: EntityView) -> None:
    """An entity as versions before 8 indexed it: deletion keys only (no accent here)."""
    props = Entity(view, "2024-01-01T00:00:00.000000Z").to_props(store.dialect)
    spellings = (view.key, *view.alias_keys)
    old = sorted({k for key in spellings for k in (deletion_keys(key) if len(key) > 3 else [key])})
    if store.dialect == "neo4j":
        props["dkeys_text"] = " ".join(k.replace(" ", "_") for k in old)
    else:
        props["dkeys"] = old
    store.run_text("CREATE (e:Entity) SET e = $props", {"props": props})


def test_version_8_indexes_entities_for_complete_review_links(store: Any) -> None:
    migrations.migrate(store)
    drawer = write_drawer(store, NewDrawer("w", "r", "Tools"), DedupPolicy()).drawer.id
    olds = [
        EntityView.of("e-1", "PostgreSQL", "tool"),
        EntityView.of("e-2", "Lovelace Ada", "person"),
        EntityView.of("e-3", "Ada", "person"),
        EntityView.of("e-4", "RFC 7231", "document"),  # digits: depth-2 deletion keys
    ]
    for view in olds:
        insert_with_keys_before_version_8(store, view)

    def links(name: str, kind: str) -> tuple[str, ...]:
        inputs = [MentionInput(drawer, make_mention(name, kind))]
        [result] = resolve_mentions(store, inputs, fuzzy=True, known_word=Lexicon())
        return result.possibly_same_as

    assert links("Postgres", "tool") == ()  # the stored key is the longer: the old keys miss it
    assert links("RFC 7245", "document") == ()  # two substitutions: the old keys miss it
    assert complete_entity_index_keys(store) == 3  # `Ada` is too short to store more
    for view in (olds[0], olds[3]):
        query = "MATCH (e:Entity {id: $id}) RETURN properties(e) AS p"
        found = store.run_text(query, {"id": view.id})[0]["p"]
        expected = index_props(view, store.dialect)
        assert {k: found[k] for k in expected} == expected
    assert complete_entity_index_keys(store) == 0
    assert links("RFC 1201", "document") == ("e-4",)  # 3 edits from `RFC 7245`
    assert links("Postgres SQL", "tool") == ("e-1",)
    assert links("Ada Lovelace", "person") == ("e-2",)


def test_version_10_numbers_the_entities_stored_before_the_sequence(store: Any) -> None:
    """Entities as versions before 10 left them (no `seq`) all get a value of the sequence, and
    the sequence's counter stands at it, so an in-memory index reads them on its first catch-up."""
    migrations.migrate(store)
    for number in range(3):
        view = EntityView.of(f"e-{number}", f"Legacy {number}", "tool")
        props = Entity(view, "2024-01-01T00:00:00.000000Z").to_props(store.dialect)
        store.run_text("CREATE (e:Entity) SET e = $props", {"props": props})
    before = rows(store, "MATCH (e:Entity) RETURN e.seq AS seq")
    assert [row["seq"] for row in before] == [None, None, None]
    assert number_entities(store) == 3
    seqs = {row["seq"] for row in rows(store, "MATCH (e:Entity) RETURN e.seq AS seq")}
    [counter] = rows(store, "MATCH (c:Meta {name: 'entity_seq'}) RETURN c.value AS value")
    assert seqs == {counter["value"]} and counter["value"] >= 1
    assert number_entities(store) == 0


def test_version_12_moves_the_drawer_sequence_onto_a_relationship(store: Any) -> None:
    """A palace whose drawer sequence stands on its node's properties, as versions before 12
    kept it: the value, epoch and deletes move to the relationship, and writes go on from them."""
    migrations.migrate(store)
    rows(store, "MATCH (c:Meta {name: 'drawer_seq'}) DETACH DELETE c")
    rows(store, "CREATE (:Meta {name: 'drawer_seq', value: 41, epoch: 'e-old', deletes: 3})")
    assert move_drawer_sequence(store) == 1
    assert move_drawer_sequence(store) == 0
    [counter] = rows(
        store,
        "MATCH (c:Meta {name: 'drawer_seq'})-[n:SEQUENCE]->(c)"
        " RETURN n.value AS value, n.epoch AS epoch, n.deletes AS deletes, c.value AS old",
    )
    assert counter == {"value": 41, "epoch": "e-old", "deletes": 3, "old": None}
    memory = DrawerIndex()
    memory.build(store)
    assert (memory.position().epoch, memory.seen) == ("e-old", 41)
    written = write_drawer(store, NewDrawer("w", "r", "rotate the certificates"), DedupPolicy())
    stored = store.run_text(
        "MATCH (d:Drawer {id: $id}) RETURN d.seq AS seq", {"id": written.drawer.id}
    )
    assert stored == [{"seq": 42}]


def test_version_14_marks_the_drawers_waiting_for_a_vector(store: Any) -> None:
    """Hygiene counts the drawers still without a vector from their mark (an index on Neo4j):
    drawers written before the mark get it, and only the current ones without a vector."""
    rows(store, LEGACY)
    rows(store, "MATCH (d:Drawer {id: 'd2'}) SET d.valid_to = '2020-02-01T00:00:00.000000Z'")
    assert hygiene(store, 0.85).drawers_without_embedding == 0
    applied = {m.version: m.changed for m in migrations.migrate(store)}
    assert applied[14] == 1
    marked = rows(store, "MATCH (d:Drawer) WHERE d.unembedded = true RETURN d.id AS id")
    assert [row["id"] for row in marked] == ["d1"]
    assert hygiene(store, 0.85).drawers_without_embedding == 1
