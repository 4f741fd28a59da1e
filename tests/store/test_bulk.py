"""Bulk loading (`graph.entities.bulk.load_entities`): names are trimmed as the API trims them."""

from typing import Any

from castlegraph.graph.entities.bulk import load_entities


def test_bulk_names_are_trimmed_and_the_database_stays_up(store: Any) -> None:
    created = load_entities(store, [("  Ada Lovelace ", "person", [" Countess Lovelace "])])
    assert created == 1
    rows = store.run_text(
        "MATCH (e:Entity {kind: 'person'}) RETURN e.name AS name, e.aliases AS aliases", {}
    )
    assert [(row["name"], row["aliases"]) for row in rows] == [
        ("Ada Lovelace", ["Countess Lovelace"])
    ]
    assert load_entities(store, [("Grace Hopper", "person", [])]) == 1
