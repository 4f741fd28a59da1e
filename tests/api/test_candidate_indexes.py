"""The database's candidate indexes while the in-memory ones serve (design §5.4).

The embedded FalkorDB has one owner, so while the service keeps the entity keys and drawer
terms in its memory the database keeps no index of them: not created, dropped from a palace an
older version wrote, created again when the in-memory index is off or its build failed. Neo4j,
which several instances share, keeps its own. A write that needs an index still building
waits for it, and past `dedup.memory_index_wait_seconds` gets `503 graph::unavailable`.
"""

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bench.service import statement_counts
from castlegraph.api.service import runtime as runtime_module
from castlegraph.graph.errors import GraphUnavailable
from castlegraph.graph.schema.inspection import schema_state
from tests.api.test_jobs import waited
from tests.support.app import app_settings, app_store, assert_envelope, running_app
from tests.support.seeding import migrated_graph

CANDIDATE_INDEXES = {("Entity", "dkeys"), ("Drawer", "terms")}
ROOM = "/api/wings/infra/rooms/ops/drawers"
ORIGINAL = "The storage engine keeps every page of the log in one file on the disk."
NEAR_COPY = "The sotrage engine keeps every page of the log in one file on the disk."
ROTATION = "Rotate the TLS certificates of every ingress controller on the first Friday."
WARM_SECONDS = 10.0
WATCHED_SECONDS = 0.5
"""How long a job is watched while the index builds: it must still be queued (a job that
went ahead would have been claimed at once; nothing passes by waiting longer)."""


def falkordb_indexed(store: Any) -> set[tuple[str, str]]:
    """(label, property) of the candidate indexes FalkorDB holds."""
    rows = store.run_text("CALL db.indexes() YIELD label, properties RETURN label, properties", {})
    held = {(row["label"], prop) for row in rows for prop in row["properties"]}
    return held & CANDIDATE_INDEXES


def neo4j_indexed(store: Any) -> set[str]:
    rows = store.run_text("SHOW INDEXES YIELD name RETURN name", {})
    return {row["name"] for row in rows} & {"entity_dkeys", "drawer_terms"}


def health(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/health")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def resolves_a_typo_and_links_a_near_copy(client: TestClient) -> None:
    """On an empty graph: a near copy is linked, a typo converges, a name is found."""
    app_store(client).wipe()
    drawer = client.post(ROOM, json={"content": ORIGINAL}).json()["drawer"]["id"]
    near = client.post(ROOM, json={"content": NEAR_COPY})
    assert near.status_code == 201, near.text
    assert [entry["drawer"] for entry in near.json()["similar"]] == [drawer]
    first = client.post(
        "/api/mentions",
        json={"mentions": [{"drawer": drawer, "name": "Kubernetes", "kind": "tool"}]},
    ).json()["results"][0]
    typo = client.post(
        "/api/mentions",
        json={"mentions": [{"drawer": drawer, "name": "Kubernets", "kind": "tool"}]},
    ).json()["results"][0]
    assert (typo["observation"]["rule"], typo["entity"]["id"]) == ("typo", first["entity"]["id"])
    found = client.get("/api/entities", params={"name": "kubernetes"}).json()
    assert [e["id"] for e in found["entities"]] == [first["entity"]["id"]]


def test_a_palace_that_had_the_candidate_indexes_loses_them_at_start(tmp_path: Path) -> None:
    with migrated_graph(tmp_path) as store:  # as an older version left it
        assert falkordb_indexed(store) == CANDIDATE_INDEXES
    with running_app(app_settings(tmp_path)) as client:
        store = app_store(client)
        assert falkordb_indexed(store) == set()
        assert schema_state(store, memory_indexes=True).complete
        assert sorted(schema_state(store).missing) == ["drawer_terms", "entity_dkeys"]
        assert (health(client)["entity_index"], health(client)["drawer_index"]) == (
            "ready",
            "ready",
        )
        resolves_a_typo_and_links_a_near_copy(client)
    settings = app_settings(tmp_path, dedup={"memory_index": False})
    with running_app(settings) as client:
        assert falkordb_indexed(app_store(client)) == CANDIDATE_INDEXES
        assert schema_state(app_store(client)).complete
        resolves_a_typo_and_links_a_near_copy(client)


def test_a_restarted_service_knows_the_drawers_it_finds_and_writes_in_one_statement(
    tmp_path: Path,
) -> None:
    """After its drawer index is built, a service just started reads the newest drawers in
    (`DrawerIndex.warm`): a near copy of a drawer written before the restart is decided with
    no read (one `create_drawer_unless_moved`)."""
    settings = app_settings(tmp_path)
    with running_app(settings) as client:
        first = client.post(ROOM, json={"content": ORIGINAL}).json()["drawer"]["id"]
        other = client.post(ROOM, json={"content": "Rotate the certificates on Friday."})
    with running_app(settings) as client:
        known = client.app.state.runtime.drawer_index.known  # type: ignore[attr-defined]
        deadline = time.monotonic() + WARM_SECONDS
        while known.cache_info().entries < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert known.get(first) is not None and known.get(other.json()["drawer"]["id"])
        before = statement_counts(client)["create_drawer_unless_moved"]
        near = client.post(ROOM, json={"content": NEAR_COPY})
        assert [entry["drawer"] for entry in near.json()["similar"]] == [first]
        after = statement_counts(client)
        assert after["create_drawer_unless_moved"] == before + 1
        assert after["drawer_candidates_by_ids"] == 0


@pytest.mark.neo4j
def test_neo4j_keeps_its_candidate_indexes_with_the_memory_indexes_on(
    tmp_path: Path, neo4j_address: tuple[str, str, str]
) -> None:
    uri, user, password = neo4j_address
    graph = {"neo4j_uri": uri, "neo4j_user": user, "neo4j_password": password}
    with running_app(app_settings(tmp_path, graph=graph)) as client:
        assert neo4j_indexed(app_store(client)) == {"entity_dkeys", "drawer_terms"}
        assert health(client)["entity_index"] == "ready"


@pytest.mark.neo4j
def test_neo4j_drops_them_where_every_instance_serves_them_from_memory(
    tmp_path: Path, neo4j_address: tuple[str, str, str]
) -> None:
    """`graph.neo4j_memory_indexes_only`: the service drops both, answers from memory, and
    doctor's schema check expects them absent; a service without the setting creates them
    again, and finds what the first wrote through them."""
    uri, user, password = neo4j_address
    graph = {"neo4j_uri": uri, "neo4j_user": user, "neo4j_password": password}
    only = app_settings(tmp_path, graph={**graph, "neo4j_memory_indexes_only": True})
    with running_app(only) as client:
        store = app_store(client)
        assert neo4j_indexed(store) == set()
        assert schema_state(store, memory_indexes=True).complete
        assert sorted(schema_state(store, memory_indexes=False).missing) == [
            "drawer_terms",
            "entity_dkeys",
        ]
        assert (health(client)["entity_index"], health(client)["drawer_index"]) == (
            "ready",
            "ready",
        )
        resolves_a_typo_and_links_a_near_copy(client)
        drawer = client.post(ROOM, json={"content": ROTATION})
        first = mention(client, drawer.json()["drawer"]["id"], "Prometheus")
    with running_app(app_settings(tmp_path, graph=graph, dedup={"memory_index": False})) as client:
        assert neo4j_indexed(app_store(client)) == {"entity_dkeys", "drawer_terms"}
        typo = mention(client, drawer.json()["drawer"]["id"], "Promethues")
        assert (typo["observation"]["rule"], typo["entity"]["id"]) == (
            "typo",
            first["entity"]["id"],
        )
        near = client.post(ROOM, json={"content": ROTATION.replace("controller", "controler")})
        assert [entry["drawer"] for entry in near.json()["similar"]] == [
            drawer.json()["drawer"]["id"]
        ]


def failing_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both in-memory indexes fail to build, as a database lost mid-build would make them."""

    def fail(self: Any, store: Any, stopping: Any = None) -> None:
        raise GraphUnavailable("the graph database went away during the build")

    monkeypatch.setattr(runtime_module.EntityIndex, "build", fail)
    monkeypatch.setattr(runtime_module.DrawerIndex, "build", fail)


@pytest.fixture(name="failing_builds")
def failing_builds_fixture(monkeypatch: pytest.MonkeyPatch) -> None:
    failing_builds(monkeypatch)


def mention(client: TestClient, drawer: str, name: str) -> dict[str, Any]:
    posted = client.post(
        "/api/mentions", json={"mentions": [{"drawer": drawer, "name": name, "kind": "tool"}]}
    )
    assert posted.status_code == 200, posted.text
    result: dict[str, Any] = posted.json()["results"][0]
    return result


@pytest.mark.parametrize("later", ["memory index off", "failed build"])
def test_entities_written_while_memory_served_are_found_by_the_database_index_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, later: str
) -> None:
    """FalkorDB stores no index keys while the memory index serves; the service that needs
    its database's index again fills them in first."""
    with running_app(app_settings(tmp_path)) as client:
        drawer = client.post(ROOM, json={"content": ORIGINAL}).json()["drawer"]["id"]
        first = mention(client, drawer, "Kubernetes")
        alias = client.post(
            f"/api/entities/{first['entity']['id']}/aliases", json={"alias": "Kubernetes Operator"}
        )
        assert alias.status_code == 200, alias.text
        keys = app_store(client).run_text("MATCH (e:Entity) RETURN e.dkeys AS keys", {})
        assert keys == [{"keys": None}]
    if later == "failed build":
        failing_builds(monkeypatch)
        settings = app_settings(tmp_path)
    else:
        settings = app_settings(tmp_path, dedup={"memory_index": False})
    with running_app(settings) as client:
        if later == "failed build":  # running_app returns once the fallback is done
            assert health(client)["entity_index"] == "failed"
        assert falkordb_indexed(app_store(client)) == CANDIDATE_INDEXES
        for typo in ("Kubernets", "Kubernetes Operatr"):
            found = mention(client, drawer, typo)
            assert (found["observation"]["rule"], found["entity"]["id"]) == (
                "typo",
                first["entity"]["id"],
            )


@pytest.mark.usefixtures("failing_builds")
def test_a_failed_build_creates_the_database_index_again_and_writes_still_resolve(
    tmp_path: Path,
) -> None:
    with running_app(app_settings(tmp_path)) as client:
        assert (health(client)["entity_index"], health(client)["drawer_index"]) == (
            "failed",
            "failed",
        )
        assert falkordb_indexed(app_store(client)) == CANDIDATE_INDEXES
        resolves_a_typo_and_links_a_near_copy(client)


@pytest.fixture
def building(client: TestClient) -> Iterator[TestClient]:
    """The app with both in-memory indexes still building, where the database keeps none and
    a write waits for nothing (`dedup.memory_index_wait_seconds = 0`); put back afterwards."""
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    kept = runtime.entity_index, runtime.drawer_index
    runtime.entity_index = runtime_module.EntityIndex()
    runtime.drawer_index = runtime.jobs._drawer_index = runtime_module.DrawerIndex()
    for index in (runtime.entity_index, runtime.drawer_index):
        index.database_answers = False
        index.wait_seconds = 0.0
    try:
        yield client
    finally:
        runtime.entity_index, runtime.drawer_index = kept
        runtime.jobs._drawer_index = kept[1]


def test_a_write_past_the_bound_is_told_503_with_retry_after(building: TestClient) -> None:
    client = building
    assert (health(client)["entity_index"], health(client)["drawer_index"]) == (
        "building",
        "building",
    )
    refused = client.post(ROOM, json={"content": ORIGINAL})
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "2"
    assert_envelope(refused.json(), "graph::unavailable")
    assert refused.json()["error"]["details"] == {"index": "drawer_index", "state": "building"}
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    runtime._fall_back(runtime.drawer_index, app_store(client))  # as a failed build does:
    # the database's index made again, and it answers drawer writes from now on
    drawer = client.post(ROOM, json={"content": ORIGINAL})
    assert drawer.status_code == 201, drawer.text
    mention = {"drawer": drawer.json()["drawer"]["id"], "name": "Kubernetes", "kind": "tool"}
    batch = client.post("/api/mentions", json={"mentions": [mention]})
    assert batch.status_code == 503
    assert batch.headers["Retry-After"] == "2"
    assert_envelope(batch.json(), "graph::unavailable")
    assert batch.json()["error"]["details"] == {"index": "entity_index", "state": "building"}
    assert (
        client.post("/api/resolve", json={"name": "Kubernetes", "kind": "tool"}).status_code == 503
    )
    assert client.get("/api/entities", params={"name": "kubernetes"}).status_code == 503


def test_a_job_waits_for_the_drawer_index_without_bound(building: TestClient) -> None:
    client = building
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    posted = client.post(
        "/api/checkpoints",
        json={
            "wing": "infra",
            "room": "ops",
            "items": [{"content": ORIGINAL}, {"content": NEAR_COPY}],
        },
    )
    assert posted.status_code == 202, posted.text
    job_id = posted.json()["job"]["id"]
    runtime.jobs.idle.clear()
    assert not runtime.jobs.idle.wait(WATCHED_SECONDS)  # taken from the queue, not yet run
    assert client.get(f"/api/jobs/{job_id}").json()["job"]["status"] == "queued"
    runtime.drawer_index.build(app_store(client))
    job = waited(client, posted.json()["job"])
    assert (job["status"], job["result"]["stored"]) == ("succeeded", 2)
    links = app_store(client).run_text("MATCH (:Drawer)-[l:SIMILAR_TO]->(:Drawer) RETURN l", {})
    assert len(links) == 1
