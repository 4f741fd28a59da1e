"""`bench load`: 16 clients mixing writes, mentions, reads and alias updates, then checks.

Bounded in time and loopback only: it starts its own service and stops by itself. While the
clients run, `bench.hazards` throws in what must be refused or shrugged off and polls
`/api/health` throughout; afterwards `_check` reads back through the API what the load must not
break.
"""

import random
import statistics
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench import hazards
from bench.report import print_table
from bench.service import Backend, Service, memory_facts, running_service

CLIENTS = 16
FIRST = ["Ada", "Grace", "Alan", "Katherine", "Edsger", "Barbara", "Donald", "Margaret"]
LAST = ["Lovelace", "Hopper", "Turing", "Johnson", "Dijkstra", "Liskov", "Knuth", "Hamilton"]
TOOLS = ["Kubernetes", "SurrealDB", "Neo4j", "FalkorDB", "Python 3.12", "Node.js", "PostgreSQL"]


@dataclass
class Tally:
    latencies: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[int] = field(default_factory=Counter)
    drawers: list[str] = field(default_factory=list)
    mentions: list[tuple[str, str]] = field(default_factory=list)  # (drawer, entity)
    names: set[tuple[str, str]] = field(default_factory=set)  # (name, kind)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, operation: str, seconds: float, status: int) -> None:
        with self.lock:
            self.latencies[operation].append(seconds)
            self.statuses[status] += 1


def _spelling(name: str, rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.2:
        return name.upper()
    if roll < 0.3 and len(name) > 6:
        i = rng.randrange(1, len(name) - 1)
        return name[:i] + name[i + 1] + name[i] + name[i + 2 :]  # a transposition
    return name


def _client_loop(base_url: str, seconds: float, seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    mine: list[str] = []
    with httpx.Client(base_url=base_url, timeout=30) as client:
        while time.monotonic() < deadline:
            roll = rng.random()
            started = time.perf_counter()
            if roll < 0.35 or not mine:
                room = f"room-{rng.randrange(8)}"
                text = (
                    f"Note {rng.randrange(3000)} about {rng.choice(TOOLS)} by {rng.choice(FIRST)}"
                )
                response = client.post(
                    f"/api/wings/load/rooms/{room}/drawers", json={"content": text}
                )
                operation = "drawer write"
                if response.status_code == 201:
                    mine.append(response.json()["drawer"]["id"])
            elif roll < 0.65:
                batch = []
                for _ in range(20):
                    if rng.random() < 0.5:
                        name, kind = f"{rng.choice(FIRST)} {rng.choice(LAST)}", "person"
                    else:
                        name, kind = rng.choice(TOOLS), "tool"
                    batch.append(
                        {"drawer": rng.choice(mine), "name": _spelling(name, rng), "kind": kind}
                    )
                response = client.post("/api/mentions", json={"mentions": batch})
                operation = "mentions ×20"
                if response.status_code == 200:
                    with tally.lock:
                        for item, result in zip(batch, response.json()["results"], strict=True):
                            tally.mentions.append((item["drawer"], result["entity"]["id"]))
                            tally.names.add((item["name"], item["kind"]))
            elif roll < 0.9:
                response = client.get(f"/api/drawers/{rng.choice(mine)}/duplicates")
                operation = "read"
            else:
                found = client.get(
                    "/api/entities", params={"name": rng.choice(TOOLS), "kind": "tool"}
                )
                operation = "alias update"
                response = found
                entities = found.json().get("entities", []) if found.status_code == 200 else []
                if entities:
                    alias = f"{entities[0]['name']} ({rng.choice(['prod', 'dev', 'ci'])})"
                    response = client.post(
                        f"/api/entities/{entities[0]['id']}/aliases", json={"alias": alias}
                    )
            tally.record(operation, time.perf_counter() - started, response.status_code)
    with tally.lock:
        tally.drawers.extend(mine)


def _check(service: Service, tally: Tally) -> dict[str, int]:
    """What must hold after the load, read back through the API: one entity per (kind, key)
    among the names posted, every acknowledged mention and checkpoint item present, at most
    one SIMILAR_TO edge per pair. (No 5xx, the hazard jobs ended as they must and health 200
    at every poll are checked beside it.)"""
    duplicate_keys = lost = duplicate_links = 0
    with httpx.Client(base_url=service.base_url, timeout=60) as client:
        seen: set[tuple[str, str]] = set()
        for name, kind in sorted(tally.names):
            entities = client.get("/api/entities", params={"name": name, "kind": kind}).json()
            keys = Counter(e["key"] for e in entities["entities"])
            for key, count in keys.items():
                if count > 1 and (key, kind) not in seen:
                    duplicate_keys += 1
                    seen.add((key, kind))
        by_entity: defaultdict[str, set[str]] = defaultdict(set)
        for drawer, entity in tally.mentions:
            by_entity[entity].add(drawer)
        for entity, drawers in by_entity.items():
            answer = client.get(f"/api/entities/{entity}/mentions", params={"limit": 100_000})
            mentioned = {m["drawer"] for m in answer.json()}
            lost += len(drawers - mentioned)
        for drawer in tally.drawers:
            similar = client.get(f"/api/drawers/{drawer}/duplicates").json()["similar"]
            others = Counter(entry["drawer"] for entry in similar)
            duplicate_links += sum(1 for count in others.values() if count > 1)
    return {
        "duplicate_entities": duplicate_keys,
        "lost_mentions": lost,
        "duplicate_similar_edges": duplicate_links,
    }


HAZARDS_AFTER_SECONDS = 5.0
"""The hazards start once the clients are in full swing."""


def _load(
    service: Service, seconds: float, seed: int, tally: Tally, root: Path
) -> tuple[float, dict[str, Any]]:
    """The clients and the hazards together: the clients' wall time, and the hazards' outcomes
    once every job they started ended."""
    threads = [
        threading.Thread(target=_client_loop, args=(service.base_url, seconds, seed + i, tally))
        for i in range(CLIENTS)
    ]
    tree = hazards.prepare_tree(root)
    thrown: dict[str, Any] = {}

    def throw() -> None:
        time.sleep(min(HAZARDS_AFTER_SECONDS, seconds / 4))
        thrown.update(hazards.throw_in(service.base_url, tree, tally.record))

    threads.append(threading.Thread(target=throw, name="hazards"))
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    return elapsed, hazards.settle(service.base_url, thrown)


def run(seconds: float, seed: int, backend: Backend) -> dict[str, Any]:
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="castlegraph-load-mine-") as scratch:
        root = Path(scratch).resolve()
        environment = hazards.mining_root_environment(root)
        with running_service(backend, environment) as service:
            watch = hazards.HealthWatch(service.base_url)
            watch.start()
            try:
                elapsed, outcomes = _load(service, seconds, seed, tally, root)
            finally:
                watch.stop()
            memory = memory_facts(service)
            checks = _check(service, tally)
    health = watch.summary()
    rows, operations = [], {}
    for operation, values in sorted(tally.latencies.items()):
        ordered = sorted(values)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
        operations[operation] = {
            "count": len(values),
            "per_second": len(values) / elapsed,
            "p50_ms": statistics.median(values) * 1000,
            "p99_ms": p99,
        }
        rows.append(
            [operation, len(values), len(values) / elapsed, operations[operation]["p50_ms"], p99]
        )
    print_table(
        f"{CLIENTS} clients for {seconds:.0f} s on {backend}",
        ["operation", "requests", "per s", "p50 ms", "p99 ms"],
        rows,
    )
    server_errors = sum(count for status, count in tally.statuses.items() if status >= 500)
    print_table(
        f"checks on {backend}",
        ["5xx", "duplicate entities", "lost mentions", "lost items", "duplicate SIMILAR_TO"],
        [
            [
                server_errors,
                checks["duplicate_entities"],
                checks["lost_mentions"],
                outcomes["checkpoint_lost"],
                checks["duplicate_similar_edges"],
            ]
        ],
    )
    print_table(
        f"hazards and health on {backend}",
        ["health polls", "not 200", "health p99 ms", "health max ms", "over cap", "problems"],
        [
            [
                health["health_polls"],
                health["health_not_200"],
                health["health_p99_ms"],
                health["health_max_ms"],
                " ".join(str(part) for part in outcomes["over_cap"]),
                len(outcomes["hazard_problems"]),
            ]
        ],
    )
    for problem in outcomes["hazard_problems"]:
        print(f"  hazard problem: {problem}")
    return {
        "backend": str(backend),
        "clients": CLIENTS,
        "seconds": elapsed,
        "operations": operations,
        "statuses": dict(tally.statuses),
        "server_errors": server_errors,
        **checks,
        **outcomes,
        **health,
        **memory,
    }
