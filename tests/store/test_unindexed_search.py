"""A candidate search the database has no index for is refused, not run (design §5.4).

While the service's in-memory indexes serve, FalkorDB keeps no `Entity.dkeys` or `Drawer.terms`
index, and neither does Neo4j where every instance serves them from memory
(`graph.neo4j_memory_indexes_only`): a caller that forgot to pass the in-memory index would
make FalkorDB read every entity or drawer for each probe until the query timed out, and Neo4j
fail the statement. The store refuses those statements at once (`UnindexedSearch`) from
`apply_schema(memory_indexes=True)` until `restore_index`.
"""

from collections.abc import Iterator
from typing import Any

import pytest

from castlegraph.graph.backends.neo4j_store import Neo4jStore
from castlegraph.graph.drawers.drawer_batch import write_drawers
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.drawers.palace import write_drawer
from castlegraph.graph.entities.entity_curation import add_alias
from castlegraph.graph.entities.resolution import MentionInput, dry_run, resolve_mentions
from castlegraph.graph.errors import GraphMisconfigured, UnindexedSearch
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.graph.records import Entity
from castlegraph.graph.schema.migration_steps import fill_entity_keys
from castlegraph.resolver.entity_model import make_mention
from castlegraph.resolver.entity_search_keys import stored_keys
from tests.api.test_candidate_indexes import falkordb_indexed, neo4j_indexed
from tests.store.test_entities import KNOWN_WORD, new_drawer, resolve
from tests.support.backends import NEO4J_DATABASE, wipe_neo4j

POLICY = DedupPolicy()
ORIGINAL = "The storage engine keeps every page of the log in one file on the disk."
NEAR_COPY = "The sotrage engine keeps every page of the log in one file on the disk."


@pytest.fixture
def falkordb_memory_store(falkordb_store: Any) -> Iterator[Any]:
    """The session's FalkorDB, every index created again afterwards for the next test."""
    try:
        yield falkordb_store
    finally:
        falkordb_store.apply_schema()


@pytest.fixture
def neo4j_memory_store(neo4j_address: tuple[str, str, str]) -> Iterator[Any]:
    """A store on the session's Neo4j (wiped, every index there) opened as by a service with
    `graph.neo4j_memory_indexes_only`; every index created again afterwards."""
    wipe_neo4j(neo4j_address)
    store = Neo4jStore(*neo4j_address, NEO4J_DATABASE, memory_indexes_only=True)
    store.apply_schema()
    try:
        yield store
    finally:
        store.apply_schema()
        store.close()


@pytest.fixture(params=["falkordb", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def store(request: pytest.FixtureRequest) -> Any:
    return request.getfixturevalue(f"{request.param}_memory_store")


def candidate_indexes(store: Any) -> int:
    """How many of the two candidate indexes the database holds."""
    if store.dialect == "neo4j":
        return len(neo4j_indexed(store))
    return len(falkordb_indexed(store))


def counts(store: Any) -> tuple[int, int]:
    [row] = store.run_text(
        "MATCH (n) RETURN sum(CASE WHEN n:Entity THEN 1 ELSE 0 END) AS entities,"
        " sum(CASE WHEN n:Drawer THEN 1 ELSE 0 END) AS drawers",
        {},
    )
    return row["entities"], row["drawers"]


def test_entity_searches_without_the_memory_index_are_refused_until_it_is_restored(
    store: Any,
) -> None:
    drawer = new_drawer(store, "notes on the cluster")
    [seeded] = resolve(store, drawer, ("Kubernetes", "tool"))
    store.apply_schema(memory_indexes=True)  # as the service leaves it with its memory indexes
    assert candidate_indexes(store) == 0
    before = counts(store)
    with pytest.raises(
        UnindexedSearch, match="entities_by_probe_keys searches a database index that is not there"
    ) as caught:
        resolve(store, drawer, ("Kubernets", "tool"))
    assert caught.value.bug and not caught.value.is_retryable()
    with pytest.raises(UnindexedSearch):
        dry_run(store, make_mention("Kubernets", "tool"), fuzzy=True, known_word=KNOWN_WORD)
    assert counts(store) == before  # nothing written
    store.restore_index("entity")
    assert candidate_indexes(store) == 1
    [typo] = resolve(store, drawer, ("Kubernets", "tool"))
    assert (typo.rule, typo.entity.view.id) == ("typo", seeded.entity.view.id)


def test_drawer_searches_without_the_memory_index_are_refused_until_it_is_restored(
    store: Any,
) -> None:
    store.apply_schema(memory_indexes=True)
    before = counts(store)
    with pytest.raises(UnindexedSearch, match="drawer_candidates"):
        write_drawer(store, NewDrawer("work", "notes", ORIGINAL), POLICY)
    with pytest.raises(UnindexedSearch, match=r"drawer_(batch_)?candidates"):
        write_drawers(store, [NewDrawer("work", "notes", ORIGINAL)] * 2, POLICY)
    assert counts(store) == before
    store.restore_index("entity")  # the other index: drawers are still refused
    with pytest.raises(UnindexedSearch):
        write_drawer(store, NewDrawer("work", "notes", ORIGINAL), POLICY)
    store.restore_index("drawer")
    original = write_drawer(store, NewDrawer("work", "notes", ORIGINAL), POLICY).drawer
    near = write_drawer(store, NewDrawer("work", "notes", NEAR_COPY), POLICY)
    assert [entry.drawer for entry in near.similar] == [original.id]


def test_with_every_index_applied_nothing_is_refused(store: Any) -> None:
    store.apply_schema(memory_indexes=True)
    store.apply_schema()
    assert candidate_indexes(store) == 2
    drawer = new_drawer(store, ORIGINAL)
    [seeded] = resolve(store, drawer, ("Kubernetes", "tool"))
    [typo] = resolve(store, drawer, ("Kubernets", "tool"))
    assert (typo.rule, typo.entity.view.id) == ("typo", seeded.entity.view.id)
    assert store.unindexed_searches == frozenset()


def stored_index_keys(store: Any) -> dict[str, list[str] | None]:
    rows = store.run_text("MATCH (e:Entity) RETURN e.id AS id, e.dkeys AS keys", {})
    return {row["id"]: row["keys"] for row in rows}


def test_entities_written_while_memory_serves_keep_no_index_keys_until_filled(
    falkordb_memory_store: Any,
) -> None:
    """The keys are not stored while the memory index serves, and a respelled entity loses
    the ones it had; `fill_entity_keys` gives back exactly what the database index needs."""
    store = falkordb_memory_store
    drawer = new_drawer(store, "notes on the cluster")
    [operator] = resolve(store, drawer, ("Kubernetes Operator", "tool"))
    store.apply_schema(memory_indexes=True)
    assert not store.stores_entity_keys
    index = EntityIndex()
    index.build(store)
    inputs = [MentionInput(drawer, make_mention("Grafana Loki", "tool"))]
    [loki] = resolve_mentions(store, inputs, fuzzy=True, known_word=KNOWN_WORD, memory=index)
    assert loki.created
    add_alias(store, operator.entity.view.id, "kube operator", index)
    assert stored_index_keys(store) == {operator.entity.view.id: None, loki.entity.view.id: None}
    store.restore_index("entity")
    assert store.stores_entity_keys
    assert fill_entity_keys(store) == 2
    assert fill_entity_keys(store) == 0
    rows = store.run_text("MATCH (e:Entity) RETURN properties(e) AS props", {})
    views = [Entity.from_props(row["props"]).view for row in rows]
    assert "kube operator" in {alias for view in views for alias in view.aliases}
    assert stored_index_keys(store) == {view.id: stored_keys(view) for view in views}
    [typo] = resolve(store, drawer, ("Grafana Lokki", "tool"))  # on the database's index
    assert (typo.rule, typo.entity.view.id) == ("typo", loki.entity.view.id)


def test_entities_written_while_every_neo4j_instance_serves_from_memory_keep_their_keys(
    neo4j_memory_store: Any,
) -> None:
    """An instance started later without the setting searches the database's index, which
    must find them: Neo4j's entities keep their keys (`GraphStore.stores_entity_keys`)."""
    store = neo4j_memory_store
    drawer = new_drawer(store, "notes on the cluster")
    store.apply_schema(memory_indexes=True)
    assert store.stores_entity_keys
    index = EntityIndex()
    index.build(store)
    inputs = [MentionInput(drawer, make_mention("Grafana Loki", "tool"))]
    [loki] = resolve_mentions(store, inputs, fuzzy=True, known_word=KNOWN_WORD, memory=index)
    assert loki.created
    store.restore_index("entity")
    assert fill_entity_keys(store) == 0
    [typo] = resolve(store, drawer, ("Grafana Lokki", "tool"))  # on the database's index
    assert (typo.rule, typo.entity.view.id) == ("typo", loki.entity.view.id)


def test_an_instance_without_the_setting_is_told_which_setting_dropped_its_index(
    neo4j_memory_store: Any, neo4j_session_store: Any
) -> None:
    """One instance with `graph.neo4j_memory_indexes_only` started: another without it, whose
    in-memory index is building or off, searches an index that is gone."""
    drawer = new_drawer(neo4j_session_store, "notes on the cluster")
    neo4j_memory_store.apply_schema(memory_indexes=True)
    with pytest.raises(GraphMisconfigured, match=r"graph\.neo4j_memory_indexes_only") as caught:
        resolve(neo4j_session_store, drawer, ("Kubernetes", "tool"))
    assert "Neo4j has no entity_dkeys index" in caught.value.message
    with pytest.raises(GraphMisconfigured, match="Neo4j has no drawer_terms index"):
        write_drawer(neo4j_session_store, NewDrawer("work", "notes", ORIGINAL), POLICY)
