"""Probe keys are split for Neo4j's full-text queries (Lucene's clause limit), not for FalkorDB."""

from castlegraph.graph.backends.entity_key_params import probe_params
from castlegraph.graph.entities.entity_candidates import LUCENE_MAX_CLAUSES, _query_parts


def test_neo4j_probes_are_split_under_the_lucene_clause_limit() -> None:
    probes = [f"key{i:05d}" for i in range(2 * LUCENE_MAX_CLAUSES + 5)]
    parts = list(_query_parts(probes, "neo4j"))
    assert [len(part) for part in parts] == [LUCENE_MAX_CLAUSES, LUCENE_MAX_CLAUSES, 5]
    assert [key for part in parts for key in part] == probes
    query = str(probe_params(parts[0], "neo4j")["probes_query"])
    assert query.count(" OR ") == LUCENE_MAX_CLAUSES - 1


def test_falkordb_takes_every_probe_in_one_query() -> None:
    probes = [f"key{i}" for i in range(5000)]
    assert list(_query_parts(probes, "falkordb")) == [probes]
    assert list(_query_parts([], "falkordb")) == []
