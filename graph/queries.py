"""Cypher text, shipped as package data in `cypher/` and loaded by name.

A use case names a statement (`create_drawer`); the dialect folder (`cypher/neo4j/`,
`cypher/falkordb/`) wins over the shared file of the same name, so dialects only differ where
they must.
"""

from functools import cache
from importlib import resources
from typing import Literal

Dialect = Literal["falkordb", "neo4j"]

FIRST_ENTITY_CURSOR: dict[Dialect, int | str] = {"falkordb": -1, "neo4j": ""}
"""Below every cursor the statements that page through all entities (`entities_page`,
`entity_spellings_page`) return: FalkorDB's internal node ids, Neo4j's entity ids."""


@cache
def statement(name: str, dialect: Dialect) -> str:
    root = resources.files("cypher")
    for candidate in (root / dialect / f"{name}.cypher", root / f"{name}.cypher"):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    raise KeyError(f"no Cypher statement named {name!r} for {dialect}")


def schema_statements(dialect: Dialect) -> list[tuple[str, str]]:
    """(file name, statement) for every schema file of the dialect, in file-name order."""
    folder = resources.files("cypher") / "schema" / dialect
    files = sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(".cypher")),
        key=lambda entry: entry.name,
    )
    return [(entry.name, entry.read_text(encoding="utf-8")) for entry in files]
