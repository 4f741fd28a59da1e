"""Cypher text, shipped as package data in `cypher/` and loaded by name.

A use case names a statement (`create_drawer`); the dialect folder (`cypher/neo4j/`,
`cypher/falkordb/`) wins over the shared file of the same name, so dialects only differ where
they must.
"""

from collections.abc import Collection
from functools import cache
from importlib import resources
from typing import Literal

Dialect = Literal["falkordb", "neo4j"]

FIRST_ENTITY_CURSOR: dict[Dialect, int | str] = {"falkordb": -1, "neo4j": ""}
"""Below every cursor the statements that page through all entities (`entities_page`,
`entity_spellings_page`) return: FalkorDB's internal node ids, Neo4j's entity ids."""


MEMORY_SERVED: dict[str, str] = {
    "entity": "21_entity_dkeys.cypher",
    "drawer": "13_drawer_terms.cypher",
}
"""The database's candidate indexes (schema files, the same names in both dialects) that the
service's in-memory indexes serve instead, by the in-memory index that does (design §5.4)."""


def index_of(file_name: str) -> str:
    """The name of the index a schema file creates: `21_entity_dkeys.cypher` → `entity_dkeys`."""
    return file_name.removesuffix(".cypher").split("_", 1)[-1]


SEARCHES_OF_SERVED: dict[str, frozenset[str]] = {
    "entity": frozenset({"entities_by_probe_keys"}),
    "drawer": frozenset({"drawer_candidates", "drawer_batch_candidates"}),
}
"""The statements that search those indexes, by the in-memory index that replaces them: without
the index under them each would read every entity or drawer (`graph.errors.UnindexedSearch`)."""


@cache
def statement(name: str, dialect: Dialect) -> str:
    root = resources.files("castlegraph.cypher")
    for candidate in (root / dialect / f"{name}.cypher", root / f"{name}.cypher"):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    raise KeyError(f"no Cypher statement named {name!r} for {dialect}")


def schema_statement(file_name: str, dialect: Dialect) -> str:
    """The statement of one schema file of the dialect (`13_drawer_terms.cypher`)."""
    [text] = [text for name, text in schema_statements(dialect) if name == file_name]
    return text


def schema_statements(dialect: Dialect, *, without: Collection[str] = ()) -> list[tuple[str, str]]:
    """(file name, statement) for every schema file of the dialect but those named in
    `without`, in file-name order."""
    folder = resources.files("castlegraph.cypher") / "schema" / dialect
    files = sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(".cypher")),
        key=lambda entry: entry.name,
    )
    files = [entry for entry in files if entry.name not in without]
    return [(entry.name, entry.read_text(encoding="utf-8")) for entry in files]
