"""Every statement the graph layer runs exists for both backends, and dialects stay paired."""

import ast
from pathlib import Path

from castlegraph.graph.backends.queries import statement

ROOT = Path(__file__).resolve().parents[2]
CYPHER = ROOT / "cypher"
NEO4J_ONLY = {
    "take_lock",  # FalkorDB locks in-process
    "take_locks",
    "lock_names",
    "await_indexes",  # and polls its indexes
    "server_components",  # its version is its module's, read from Redis (`FalkorStore.server`)
    "entity_seq_settled",  # `Tx.run_settled`: FalkorDB applies each statement whole
    "drawer_seq_settled",
}
FALKORDB_ONLY = {
    "drop_vector_index",  # its schema procedures
    "know_relationship_types",  # its plans match nothing of a type they do not know yet
}


def _literal_names(node: ast.expr) -> list[str]:
    """`"name"`, or both names of `"a" if cond else "b"`."""
    if isinstance(node, ast.IfExp):
        return _literal_names(node.body) + _literal_names(node.orelse)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if node.value.isidentifier() else []
    return []


def statement_names() -> set[str]:
    """First arguments of every `tx.run("name", ...)` call in graph/."""
    names = set()
    for path in (ROOT / "graph").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "run"
                and node.args
            ):
                names.update(_literal_names(node.args[0]))
    return names


def test_the_graph_layer_runs_named_statements() -> None:
    assert {"create_drawer", "write_resolutions", "entities_by_probe_keys"} <= statement_names()


def test_every_statement_loads_for_each_dialect_that_runs_it() -> None:
    """One check over the table of (statement, dialect); Neo4j-only statements (locks: FalkorDB
    serialises write units in the process) are asked of Neo4j alone."""
    wanted = [
        (name, dialect)
        for name in sorted(statement_names())
        for dialect in ("falkordb", "neo4j")
        if not (name in NEO4J_ONLY and dialect == "falkordb")
    ]
    assert len(wanted) > 100
    empty = [(name, dialect) for name, dialect in wanted if not statement(name, dialect).strip()]
    assert empty == []


def test_dialect_folders_pair_up() -> None:
    falkordb = {p.stem for p in (CYPHER / "falkordb").glob("*.cypher")}
    neo4j = {p.stem for p in (CYPHER / "neo4j").glob("*.cypher")}
    assert falkordb - FALKORDB_ONLY == neo4j - NEO4J_ONLY


def test_schemas_cover_the_same_indexes() -> None:
    def topics(dialect: str) -> set[str]:
        # 10_drawer_content_hash.cypher -> drawer_content_hash
        return {p.stem.split("_", 1)[1] for p in (CYPHER / "schema" / dialect).glob("*.cypher")}

    # Neo4j lists its uniqueness constraints as files; FalkorDB's are in
    # graph/backends/falkordb_store.py.
    constraints = {
        "drawer_id",
        "entity_id",
        "wing_name",
        "room_wing_name",
        "entity_kind_name",
        "migration_version",
        "lock_name",
        "entity_name",
        "idempotency_key",
    }
    # Indexes Neo4j keeps that FalkorDB must not: string ranges on an indexed property answer
    # wrong rows there (`idempotency_created`, `job_created`), and a mark read only by hygiene
    # is not worth an index update on every embedded drawer write (`drawer_unembedded`).
    neo4j_only = {"idempotency_created", "job_created", "drawer_unembedded"}
    assert topics("falkordb") - constraints == topics("neo4j") - constraints - neo4j_only
