"""Two `castlegraph serve` processes on one Neo4j, under concurrent writes through both.

Neo4j only: two services cannot share an embedded database (the second is refused its data
directory, `test_service_process.py`).

What several instances behind a load balancer must keep (design §2.2): one entity per (kind,
key), every job run once, every mention and verdict kept, and a read through one instance
sees what was written through the other. The tests of each instance deciding on the other's
writes run twice: with Neo4j's candidate indexes, and with `graph.neo4j_memory_indexes_only`,
where nothing may need them.
"""

import itertools
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from castlegraph.graph.backends.neo4j_store import Neo4jStore
from tests.api.test_candidate_indexes import neo4j_indexed
from tests.support.backends import neo4j_backend
from tests.support.processes import Service

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

PEOPLE = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Katherine Johnson", "Edsger Dijkstra"]
SPELLINGS = [str.upper, str.lower, lambda n: n, lambda n: n.replace(" ", "  ")]
BATCHES, BATCH, CHECKPOINTS, ITEMS, LONG_ITEMS = 12, 100, 4, 40, 800
WAIT_SECONDS = 120.0


@pytest.fixture
def graph(neo4j_address: tuple[str, str, str]) -> Iterator[Neo4jStore]:
    store = Neo4jStore(*neo4j_address, "neo4j")
    store.wipe()
    yield store
    store.apply_schema()  # the candidate indexes back after instances that dropped them
    store.close()


@pytest.fixture
def memory_only() -> bool:
    """Whether the instances run with `graph.neo4j_memory_indexes_only` (a test that
    parametrizes `memory_only` runs both ways)."""
    return False


@pytest.fixture
def start_instance(
    graph: Neo4jStore,
    neo4j_address: tuple[str, str, str],
    tmp_path: Path,
    spawn: Callable[..., Service],
    memory_only: bool,
) -> Callable[[str], Service]:
    env = neo4j_backend(neo4j_address).env
    if memory_only:
        env = {**env, "CASTLEGRAPH_NEO4J_MEMORY_INDEXES_ONLY": "true"}

    def start(name: str) -> Service:
        service = spawn(tmp_path / name, env=env)
        service.wait_healthy()
        return service

    return start


def post(service: Service, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{service.url}{path}", json=body, timeout=60)


def mention_batch(drawers: list[str], seed: int) -> list[dict[str, str]]:
    pick = random.Random(seed)
    return [
        {
            "drawer": pick.choice(drawers),
            "name": pick.choice(SPELLINGS)(pick.choice(PEOPLE)),
            "kind": "person",
        }
        for _ in range(BATCH)
    ]


def count(graph: Neo4jStore, text: str) -> int:
    return int(graph.run_text(text, {})[0]["n"])


def test_two_instances_keep_one_entity_per_key_run_each_job_once_and_lose_nothing(
    graph: Neo4jStore, start_instance: Callable[[str], Service]
) -> None:
    a = start_instance("a")
    long_job = post(
        a,
        "/api/checkpoints",
        {
            "wing": "lab",
            "room": "long",
            "items": [{"content": f"a long checkpoint, item {i}"} for i in range(LONG_ITEMS)],
        },
    ).json()["job"]["id"]
    b = start_instance("b")  # finds a's job unfinished at its start: a still holds it
    instances = [a, b]
    drawers = [
        post(service, "/api/wings/lab/rooms/notes/drawers", {"content": f"lab note {i}"}).json()[
            "drawer"
        ]["id"]
        for i, service in zip(range(20), itertools.cycle(instances), strict=False)
    ]
    checkpoint = {"wing": "lab", "room": "log", "items": []}

    def mentions(seed: int) -> list[tuple[str, str]]:
        body = {"mentions": mention_batch(drawers, seed)}
        answer = post(instances[seed % 2], "/api/mentions", body)
        assert answer.status_code == 200, answer.text
        return [
            (m["drawer"], r["entity"]["id"])
            for m, r in zip(body["mentions"], answer.json()["results"], strict=True)
        ]

    def job(seed: int) -> str:
        items = [{"content": f"checkpoint {seed} item {i}"} for i in range(ITEMS)]
        answer = post(instances[seed % 2], "/api/checkpoints", {**checkpoint, "items": items})
        assert answer.status_code == 202, answer.text
        return str(answer.json()["job"]["id"])

    def verdict(seed: int) -> int:
        status = ("duplicate", "unrelated")[seed % 2]
        body = {"a": drawers[0], "b": drawers[1], "status": status}
        return post(instances[seed % 2], "/api/duplicates/verdicts", body).status_code

    with ThreadPoolExecutor(max_workers=6) as pool:
        seen = pool.map(mentions, range(BATCHES))
        jobs = [long_job, *pool.map(job, range(CHECKPOINTS))]
        verdicts = list(pool.map(verdict, range(6)))
        pairs = {pair for batch in seen for pair in batch}

    assert set(verdicts) == {200}
    deadline = time.monotonic() + WAIT_SECONDS
    finished: dict[str, dict[str, Any]] = {}
    while len(finished) < len(jobs) and time.monotonic() < deadline:
        for job_id in jobs:  # read through the other instance than the one written to
            state = httpx.get(f"{b.url}/api/jobs/{job_id}", timeout=10).json()["job"]
            if state["status"] in ("succeeded", "failed"):
                finished[job_id] = state
        time.sleep(0.1)
    assert sorted(state["status"] for state in finished.values()) == ["succeeded"] * len(jobs)
    runs = graph.run_text("MATCH (j:Job) RETURN j.attempts AS attempts", {})
    assert [row["attempts"] for row in runs] == [1] * len(jobs)  # no job ran twice
    assert "resuming job" not in b.output()

    duplicated_keys = count(
        graph,
        "MATCH (e:Entity) WITH e.kind AS kind, e.key AS key, count(*) AS same "
        "WHERE same > 1 RETURN count(*) AS n",
    )
    assert duplicated_keys == 0
    assert count(graph, "MATCH (e:Entity) RETURN count(e) AS n") == len(PEOPLE)
    assert count(graph, "MATCH ()-[m:MENTIONS]->() RETURN count(m) AS n") == len(pairs)
    assert count(graph, "MATCH (d:Drawer {room: 'log'}) RETURN count(d) AS n") == (
        CHECKPOINTS * ITEMS
    )
    assert count(graph, "MATCH (d:Drawer {room: 'long'}) RETURN count(d) AS n") == LONG_ITEMS
    assert count(graph, "MATCH ()-[v:DEDUP_CHECKED]->() RETURN count(v) AS n") == 1
    for drawer, entity in sorted(pairs)[:20]:  # written through either, read through a
        assert httpx.get(f"{a.url}/api/entities/{entity}", timeout=10).status_code == 200
        assert httpx.get(f"{a.url}/api/drawers/{drawer}", timeout=10).status_code == 200


def wait_index_ready(service: Service, index: str = "entity_index") -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    state = None
    while time.monotonic() < deadline:
        state = httpx.get(f"{service.url}/api/health", timeout=10).json()[index]
        if state == "ready":
            return
        time.sleep(0.1)
    raise AssertionError(f"{index} still {state!r} after {WAIT_SECONDS} s")


def mention(service: Service, drawer: str, name: str, kind: str) -> dict[str, Any]:
    body = {"name": name, "kind": kind}
    answer = post(service, f"/api/drawers/{drawer}/mentions", body)
    assert answer.status_code in (200, 201), answer.text  # 200: the drawer already named it
    return dict(answer.json())


@pytest.mark.parametrize("memory_only", [False, True], ids=["database-indexes", "memory-only"])
def test_each_instance_decides_on_what_the_other_wrote_since_its_index_was_built(
    start_instance: Callable[[str], Service],
) -> None:
    """Both in-memory candidate indexes are built on an empty palace, then every decision in
    b rests on entities and spellings only a wrote (design §5.4): b catches up on the entity
    sequence inside its write unit, so a typo, a review link and an alias all reach across."""
    a, b = start_instance("a"), start_instance("b")
    wait_index_ready(a)
    wait_index_ready(b)
    drawer = post(a, "/api/wings/lab/rooms/notes/drawers", {"content": "cluster notes"}).json()[
        "drawer"
    ]["id"]

    kubernetes = mention(a, drawer, "Kubernetes", "tool")
    typo = mention(b, drawer, "Kubernets", "tool")
    assert (typo["observation"]["rule"], typo["entity"]["id"]) == (
        "typo",
        kubernetes["entity"]["id"],
    )

    katarina = mention(a, drawer, "Katarina", "person")
    katerino = mention(b, drawer, "Katerino", "person")
    katerina = mention(a, drawer, "Katerina", "person")
    assert katerino["possibly_same_as"] == [katarina["entity"]["id"]]
    assert katerina["observation"]["rule"] == "new"
    assert sorted(katerina["possibly_same_as"]) == sorted(
        [katarina["entity"]["id"], katerino["entity"]["id"]]
    )

    alias = post(a, f"/api/entities/{kubernetes['entity']['id']}/aliases", {"alias": "K8s"})
    assert alias.status_code == 200, alias.text
    by_alias = mention(b, drawer, "K8s", "tool")
    assert (by_alias["observation"]["rule"], by_alias["entity"]["id"]) == (
        "alias",
        kubernetes["entity"]["id"],
    )


@pytest.mark.parametrize("memory_only", [False, True], ids=["database-indexes", "memory-only"])
def test_each_instance_finds_the_drawers_the_other_wrote_and_closed(
    start_instance: Callable[[str], Service], graph: Neo4jStore, memory_only: bool
) -> None:
    """Both in-memory drawer indexes are built on an empty palace, then each write's candidates
    rest on drawers only the other instance wrote or closed (design §4.5): the writer catches up
    on the drawer sequence inside its write unit."""
    a, b = start_instance("a"), start_instance("b")
    wait_index_ready(a, "drawer_index")
    wait_index_ready(b, "drawer_index")
    kept = neo4j_indexed(graph)
    assert kept == (set() if memory_only else {"entity_dkeys", "drawer_terms"})
    room = "/api/wings/lab/rooms/notes/drawers"
    original = "rotate the staging certificates before the audit on friday"
    first = post(a, room, {"content": original}).json()["drawer"]["id"]
    near = post(b, room, {"content": original.replace("audit", "audti")})
    assert near.status_code == 201, near.text
    assert [s["drawer"] for s in near.json()["similar"]] == [first]
    exact = post(b, room, {"content": original})
    assert (exact.status_code, exact.json()["drawer"]["id"]) == (200, first)
    # a closes the original: b no longer offers it, and links the near copy instead.
    closed = httpx.put(
        f"{a.url}/api/drawers/{first}", json={"content": "something else entirely"}, timeout=60
    )
    assert closed.status_code in (200, 201), closed.text
    again = post(b, room, {"content": original})
    assert again.status_code == 201, again.text
    assert [s["drawer"] for s in again.json()["similar"]] == [near.json()["drawer"]["id"]]
