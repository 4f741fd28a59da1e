"""The statements that create one drawer name each stored property in its CREATE
(`graph.drawers.drawer_props.STORED_PROPERTIES`), and a property outside that list is refused
before a statement could drop it."""

import re

import pytest

from castlegraph.graph.backends.queries import statement
from castlegraph.graph.drawers.drawer_props import (
    STORED_PROPERTIES,
    drawer_write_props,
    new_drawer_record,
)
from castlegraph.graph.drawers.drawer_request import NewDrawer
from castlegraph.graph.records import DRAWER_RECORD_PROPERTIES, Drawer
from castlegraph.resolver.drawers import DrawerText

CREATORS = ["create_drawer", "create_drawer_replacing", "create_drawer_unless_moved"]
"""A batch's `create_drawers` sets its drawers' properties whole (`SET d += item.props`)."""


@pytest.mark.parametrize("dialect", ["falkordb", "neo4j"])
@pytest.mark.parametrize("name", CREATORS)
def test_a_drawer_create_names_every_stored_property(name: str, dialect: str) -> None:
    text = statement(name, dialect)  # type: ignore[arg-type]
    [written] = re.findall(r"CREATE \(r\)-\[:HAS_DRAWER\]->\(d:Drawer \{(.*?)\n\}\)", text, re.S)
    named = dict(re.findall(r"(\w+): ([^,]+?)(?:,|$)", " ".join(written.split())))
    assert set(named) == STORED_PROPERTIES | {"seq", "unembedded", "terms"}
    assert all(named[key] == f"$props.{key}" for key in STORED_PROPERTIES)


def test_a_mined_chunk_s_properties_are_all_stored() -> None:
    new = NewDrawer(
        "w",
        "r",
        "the backup runs nightly",
        name="notes.md#0",
        kind="file",
        agent="scribe",
        source_uri="notes.md",
        origin={"document": "notes.md", "chunk": 0, "revision": "abc", "root": "/docs"},
    )
    drawer = new_drawer_record(new, DrawerText.of(new.content), "2026-12-03T00:00:00Z", None)
    props = drawer_write_props(drawer, ["t1", "t2"], "neo4j")
    assert set(props) == STORED_PROPERTIES - {"supersedes"}


def test_a_property_no_statement_stores_is_refused() -> None:
    new = NewDrawer("w", "r", "the backup runs nightly", origin={"page": 3})
    drawer: Drawer = new_drawer_record(
        new, DrawerText.of(new.content), "2026-12-03T00:00:00Z", None
    )
    with pytest.raises(ValueError, match="origin_page"):
        drawer_write_props(drawer, [], "falkordb")


WHOLE_DRAWER_READS = [
    *("drawer_by_id", "drawers_by_ids", "current_drawers_by_name", "room_drawers_page"),
    *("search_room_drawers", "drawer_candidates", "drawer_candidates_by_ids"),
    *("drawer_batch_candidates", "drawer_batch_candidates_by_ids"),
]


@pytest.mark.parametrize("dialect", ["falkordb", "neo4j"])
@pytest.mark.parametrize("name", WHOLE_DRAWER_READS)
def test_a_whole_drawer_read_names_what_the_record_reads(name: str, dialect: str) -> None:
    """Neither the vector nor the term lists are read off the store to be dropped."""
    text = statement(name, dialect)  # type: ignore[arg-type]
    projections = re.findall(r"\bd \{(\.[^}]*)\} AS drawer", text)
    whole = [p for p in projections if len(p.split(",")) > 3]
    assert whole, f"{name} reads no whole drawer"
    for projection in whole:
        named = [part.strip().removeprefix(".") for part in projection.split(",")]
        assert named == list(DRAWER_RECORD_PROPERTIES)
    assert ".*" not in text


def test_a_drawer_read_without_optional_properties_is_whole() -> None:
    """A named projection gives null for what a drawer lacks; the record reads that as absent."""
    props = dict.fromkeys(DRAWER_RECORD_PROPERTIES)
    props.update(id="d1", wing="w", room="r", content="c", content_hash="h", norm_len=1)
    props.update(created_at="2026-01-01T00:00:00Z", origin_document="notes.md")
    drawer = Drawer.from_props(props)
    assert drawer.origin == {"document": "notes.md"}
    assert drawer.kind == "manual"
    assert drawer.is_current
    assert Drawer.from_props({**props, "norm_len": None}).norm_len == 0
