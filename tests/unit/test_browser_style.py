"""The Neo4j Browser style sheet gives every label and relationship type castlegraph writes a
look of its own (the live half, tests/api/test_neo4j_browser.py, checks the captions)."""

import re
from pathlib import Path

CYPHER = Path(__file__).resolve().parents[2] / "cypher"


def test_every_relationship_type_and_label_has_a_style() -> None:
    styled = set(
        re.findall(
            r"(?:node|relationship)\.(\w+) \{",
            (CYPHER / "browser" / "castlegraph.grass").read_text(),
        )
    )
    written = set()
    for path in CYPHER.rglob("*.cypher"):
        text = path.read_text(encoding="utf-8")
        written |= set(re.findall(r"\[\w*:([A-Z_]+)", text))
        written |= set(re.findall(r"\(\w*:([A-Z][A-Za-z]+)", text))
    assert written - styled == set()
