"""The viewer rule (design §8.1): one predicate, the same in Python and in every statement."""

import re
from importlib import resources

import pytest

from castlegraph.graph.drawers.visibility import visible

PREDICATE = re.compile(
    r"\$viewer IS NULL OR coalesce\((\w+)\.kind, ''\) <> 'diary' OR \1\.agent = \$viewer"
)


@pytest.mark.parametrize(
    ("kind", "agent", "viewer", "shown"),
    [
        ("diary", "bob", None, True),  # a token naming no agent sees everything
        ("diary", "bob", "bob", True),
        ("diary", "bob", "ada", False),
        ("diary", None, "ada", False),  # an entry of no agent is nobody's to share
        ("manual", "bob", "ada", True),
        ("checkpoint", None, "ada", True),
    ],
)
def test_only_another_agents_diary_entries_are_hidden(
    kind: str, agent: str | None, viewer: str | None, shown: bool
) -> None:
    assert visible(kind, agent, viewer) is shown


def _statements() -> list[tuple[str, str]]:
    root = resources.files("castlegraph.cypher")
    folders = [root, root / "falkordb", root / "neo4j"]
    return [
        (entry.name, entry.read_text(encoding="utf-8"))
        for folder in folders
        for entry in folder.iterdir()
        if entry.name.endswith(".cypher")
    ]


def test_every_statement_taking_a_viewer_filters_with_the_one_predicate() -> None:
    taking = {name: text for name, text in _statements() if "$viewer" in text}
    assert {"drawer_candidates.cypher", "room_drawers_page.cypher"} <= set(taking)
    for name, text in taking.items():
        uses = text.count("$viewer")
        assert len(PREDICATE.findall(text)) * 2 == uses, name
