"""Migrations on a real database: recorded, idempotent, deriving keys for legacy data."""

from typing import Any

from api.lexicon import Lexicon
from graph import migrations
from graph.entities import MentionInput, resolve_mentions
from graph.migration_steps import attach_drawers_to_rooms, derive_keys
from resolver.entity_model import make_mention
from resolver.text import content_hash, fingerprint, normalize_text

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
    assert [m.version for m in first] == [1, 2, 3]
    assert migrations.migrate(store) == []
    assert [m.version for m in migrations.applied(store)] == [1, 2, 3]
    assert migrations.pending(store) == []


def test_version_3_derives_keys_and_merges_nothing(store: Any) -> None:
    rows(store, LEGACY)
    applied = {m.version: m.changed for m in migrations.migrate(store)}
    assert applied == {1: 0, 2: 2, 3: 4}
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
