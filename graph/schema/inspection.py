"""Read-only looks at a running graph for operators: is the schema there, how many jobs wait.

The expected schema is read from the same files `apply_schema` runs (`cypher/schema/<dialect>/`)
plus FalkorDB's unique constraints, so the check cannot drift from what start-up creates.
"""

import re
from dataclasses import dataclass
from typing import Any

from castlegraph.graph.backends.falkordb_store import UNIQUE_CONSTRAINTS
from castlegraph.graph.backends.queries import MEMORY_SERVED, schema_statements
from castlegraph.graph.backends.store import GraphStore, Row, Tx

JOB_STATUSES = ("queued", "running", "succeeded", "failed", "cancelled")
NEO4J_READY = "ONLINE"
FALKORDB_READY = "OPERATIONAL"

_NEO4J_NAME = re.compile(r"CREATE\s+(CONSTRAINT|(?:\w+\s+)?INDEX)\s+(\w+)\s+IF NOT EXISTS", re.I)
_FALKORDB_INDEX = re.compile(
    r"FOR\s*(?:\(\w+:(\w+)\)|\(\)-\[\w+:(\w+)\]-\(\))\s*ON\s*\(([^)]*)\)", re.I
)
"""A node index `FOR (n:Label) ON (...)` or a relationship index `FOR ()-[r:TYPE]-() ON (...)`."""


@dataclass(frozen=True, slots=True)
class SchemaState:
    expected: list[str]
    missing: list[str]
    not_ready: list[str]
    """Present but still building (FalkorDB `UNDER CONSTRUCTION`, Neo4j `POPULATING`) or failed."""

    @property
    def complete(self) -> bool:
        return not self.missing and not self.not_ready


def _lists(tx: Tx) -> tuple[list[Row], list[Row]]:
    return tx.run("index_list"), tx.run("constraint_list")


def schema_state(store: GraphStore, *, memory_indexes: bool = False) -> SchemaState:
    """What the schema lacks; `memory_indexes`: as the service applies it with the in-memory
    candidate indexes on.

    Neo4j names every constraint and index; FalkorDB keeps one index per label listing its
    properties, and constraints by (label, properties), so each dialect is compared its own way.
    With the in-memory candidate indexes (`dedup.memory_index`), FalkorDB is expected without its
    own copies of them (design §5.4), and so is Neo4j where every instance serves them from
    memory (`GraphStore.memory_replaces_indexes`); otherwise Neo4j keeps them.
    """
    indexes, constraints = store.read(_lists, use_case="schema_state")
    if store.dialect == "neo4j":
        served = memory_indexes and store.memory_replaces_indexes
        return _neo4j_state(indexes, constraints, memory_indexes=served)
    return _falkordb_state(indexes, constraints, memory_indexes=memory_indexes)


def expected_neo4j_names(*, memory_indexes: bool = False) -> list[tuple[str, str]]:
    """(kind, name) of every constraint and index the Neo4j schema files create, in order,
    but the candidate indexes the in-memory ones replace when `memory_indexes`."""
    without = MEMORY_SERVED.values() if memory_indexes else ()
    found = []
    for _, text in schema_statements("neo4j", without=without):
        match = _NEO4J_NAME.search(text)
        if match:
            kind = "constraint" if match.group(1).upper() == "CONSTRAINT" else "index"
            found.append((kind, match.group(2)))
    return found


def _neo4j_state(
    indexes: list[Row], constraints: list[Row], *, memory_indexes: bool
) -> SchemaState:
    index_states = {row["name"]: row["state"] for row in indexes}
    constraint_names = {row["name"] for row in constraints}
    expected, missing, not_ready = [], [], []
    for kind, name in expected_neo4j_names(memory_indexes=memory_indexes):
        expected.append(name)
        present = name in constraint_names if kind == "constraint" else name in index_states
        if not present:
            missing.append(name)
        elif index_states.get(name, NEO4J_READY) != NEO4J_READY:  # a constraint's own index
            not_ready.append(f"{name} ({index_states[name]})")
    return SchemaState(expected, missing, not_ready)


def expected_falkordb_indexes(
    *, memory_indexes: bool = False
) -> list[tuple[str, str, tuple[str, ...]]]:
    """(file topic, label, properties) of every range index in the FalkorDB schema files,
    but the candidate indexes the in-memory ones replace when `memory_indexes`."""
    without = MEMORY_SERVED.values() if memory_indexes else ()
    found = []
    for file_name, text in schema_statements("falkordb", without=without):
        match = _FALKORDB_INDEX.search(text)
        if match:
            label = match.group(1) or match.group(2)
            properties = tuple(p.strip().split(".", 1)[-1] for p in match.group(3).split(","))
            topic = file_name.removesuffix(".cypher").split("_", 1)[-1]
            found.append((topic, label, properties))
    return found


def _falkordb_state(
    indexes: list[Row], constraints: list[Row], *, memory_indexes: bool
) -> SchemaState:
    by_label: dict[str, Row] = {row["label"]: row for row in indexes}
    expected, missing, not_ready = [], [], []
    for topic, label, properties in expected_falkordb_indexes(memory_indexes=memory_indexes):
        expected.append(topic)
        row = by_label.get(label)
        if row is None or not set(properties) <= set(row["properties"]):
            missing.append(topic)
        elif row["status"] != FALKORDB_READY:
            not_ready.append(f"{topic} ({row['status']})")
    have = {(row["label"], tuple(sorted(row["properties"]))): row["status"] for row in constraints}
    for label, properties in UNIQUE_CONSTRAINTS:
        name = f"unique {label}({', '.join(properties)})"
        expected.append(name)
        status = have.get((label, tuple(sorted(properties))))
        if status is None:
            missing.append(name)
        elif status != FALKORDB_READY:
            not_ready.append(f"{name} ({status})")
    return SchemaState(expected, missing, not_ready)


def job_counts(store: GraphStore) -> dict[str, int]:
    """Jobs by status, every status present (0 when none); an indexed count per status."""

    def work(tx: Tx) -> dict[str, Any]:
        rows = tx.run("job_status_counts", statuses=list(JOB_STATUSES))
        return {row["status"]: row["jobs"] for row in rows}

    counted = store.read(work, use_case="job_counts")
    return {status: int(counted.get(status, 0)) for status in JOB_STATUSES}
