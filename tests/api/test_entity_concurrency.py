"""Extractors posting overlapping new names at the same moment (design §5.5), through HTTP.

How the requests really run concurrently: the session `client` is a TestClient entered as a
context manager, so requests from any thread go through its one anyio blocking portal (which
is thread-safe) to the app's event loop, and FastAPI runs the sync route handlers in anyio's
worker-thread pool, as uvicorn would. Eight threads start their requests behind a
`threading.Barrier`. To prove the requests overlap *inside the app*, not only in the test, the
route's use case is wrapped so that each request waits on a second barrier of all eight before
resolving: had the app served them one after the other, that barrier would time out and the
requests would fail with a 500. From there all eight race into the same write path.
"""

import random
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

import castlegraph.api.usecases.mentions as mentions_usecases
from castlegraph.graph.records import MentionResult
from castlegraph.resolver.entity_keys import entity_key
from tests.support.app import app_store

THREADS = 8
MENTIONS_PER_THREAD = 50
DRAWERS = 6
BARRIER_SECONDS = 30.0

SPELLINGS: dict[tuple[str, str], list[str]] = {
    ("person", "ada lovelace"): [
        "Ada Lovelace",
        "ADA LOVELACE",
        "ada lovelace",
        "Ada  Lovelace",
        "ada-lovelace",
        "Ada Lovelace.",
    ],
    ("person", "grace hopper"): ["Grace Hopper", "GRACE HOPPER", "grace hopper", "Grace_Hopper"],
    ("person", "edsger dijkstra"): ["Edsger Dijkstra", "EDSGER DIJKSTRA", "edsger dijkstra"],
    ("tool", "surrealdb"): ["SurrealDB", "surrealdb", "SURREALDB", "Surreal.DB"],
    ("tool", "nodejs"): ["Node.js", "NodeJS", "nodejs", "NODE.JS"],
    ("language", "c++"): ["C++", "c++"],
}


def new_drawer(client: TestClient, i: int) -> str:
    content = f"transcript {i} of the history of computing"
    response = client.post("/api/wings/history/rooms/people/drawers", json={"content": content})
    assert response.status_code == 201, response.text
    drawer_id: str = response.json()["drawer"]["id"]
    return drawer_id


def batch_for(thread: int, seed: int, drawers: Sequence[str]) -> list[dict[str, str]]:
    """A seeded mix of every (kind, key) in several spellings over several drawers."""
    rng = random.Random(seed * 1000 + thread)
    groups = sorted(SPELLINGS)
    return [
        {"drawer": rng.choice(drawers), "name": rng.choice(SPELLINGS[group]), "kind": group[0]}
        for group in (rng.choice(groups) for _ in range(MENTIONS_PER_THREAD))
    ]


def all_inside(parties: int) -> Callable[..., list[MentionResult]]:
    """`resolve_mentions`, entered only once `parties` requests are in their handlers at once."""
    inside = threading.Barrier(parties, timeout=BARRIER_SECONDS)
    real = mentions_usecases.resolve_mentions

    def resolve(*args: Any, **kwargs: Any) -> list[MentionResult]:
        inside.wait()
        return real(*args, **kwargs)

    return resolve


def stored(client: TestClient, text: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = app_store(client).run_text(text, {})
    return rows


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_overlapping_names_posted_at_once_make_one_entity_per_key_and_lose_no_mention(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    drawers = [new_drawer(client, i) for i in range(DRAWERS)]
    batches = [batch_for(thread, seed, drawers) for thread in range(THREADS)]
    monkeypatch.setattr(mentions_usecases, "resolve_mentions", all_inside(THREADS))
    start = threading.Barrier(THREADS, timeout=BARRIER_SECONDS)

    def post(batch: list[dict[str, str]]) -> list[dict[str, Any]]:
        start.wait()
        response = client.post("/api/mentions", json={"mentions": batch})
        assert response.status_code == 200, response.text
        results: list[dict[str, Any]] = response.json()["results"]
        return results

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        answers = list(pool.map(post, batches))

    # one entity per (kind, key), and every answer names it
    rows = stored(client, "MATCH (e:Entity) RETURN e.kind AS kind, e.key AS key, e.id AS id")
    per_key = Counter((row["kind"], row["key"]) for row in rows)
    assert per_key == Counter(dict.fromkeys(SPELLINGS, 1))
    id_of = {(row["kind"], row["key"]): row["id"] for row in rows}
    posted: set[tuple[str, str]] = set()
    created: Counter[str] = Counter()
    linked: Counter[tuple[str, str]] = Counter()
    for batch, results in zip(batches, answers, strict=True):
        for mention, result in zip(batch, results, strict=True):
            group = (mention["kind"], entity_key(mention["name"]))
            assert result["entity"]["id"] == id_of[group], (mention, result)
            pair = (mention["drawer"], id_of[group])
            posted.add(pair)
            created[result["entity"]["id"]] += result["created"]
            linked[pair] += result["linked"]
    assert created == Counter(id_of.values())  # each entity created by exactly one mention
    assert linked == Counter(posted)  # each MENTIONS edge made by exactly one mention

    # no lost mention, and one MENTIONS edge per (drawer, entity)
    edges = stored(client, "MATCH (d:Drawer)-[:MENTIONS]->(e:Entity) RETURN d.id AS d, e.id AS e")
    assert sorted((row["d"], row["e"]) for row in edges) == sorted(posted)
