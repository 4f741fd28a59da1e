"""Two service instances on one Neo4j against one (design §2.2, §10): do instances add throughput?

Two extractors of different kinds (no `other`, which locks every kind) post at once, first both
to one instance, then each to its own; rounds alternate so a shared machine's load hits both.
Reported: mentions/s, the kind locks' time per batch (`take_locks`, wait included) and the write
statement's (`write_resolutions`, which waits for the entity sequence), and the CPU seconds of
each service and of Neo4j, which show whether cores rather than locks bound the ratio.
"""

import json
import os
import random
import re
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import httpx

from bench import jit
from bench.mention_mix import Category, Drawn, MentionMix
from bench.mentions import REQUEST_TIMEOUT_SECONDS, cpu_seconds, make_drawers, wait_for_entity_index
from bench.names import Named, NameGenerator
from bench.neo4j_server import PASSWORD, USER
from bench.preload import READY_TIMEOUT_SECONDS, preload_neo4j
from bench.service import Backend, Service, serving, start_database

BATCH = 500
STREAMS: tuple[frozenset[str], frozenset[str]] = (
    frozenset({"person", "document"}),
    frozenset({"organization", "place", "tool"}),
)
"""The kinds of each extractor: four and more kinds, none shared, no `other`."""
LOCK_STATEMENTS = ("take_locks", "write_resolutions")
WARM_UP_BATCHES = 2
"""Batches each extractor posts in a warm-up round, to both instances at once."""
MAX_WARM_UP_ROUNDS = 40
"""Warm-up rounds at most: more until Neo4j's JIT compiler is quiet (`bench.jit`)."""


class KindMix(MentionMix):
    """The benchmark's mix, drawing again instead of an `other` mention."""

    def draw(self, rng: random.Random) -> Drawn:
        while (drawn := super().draw(rng)).category is Category.OTHER_KIND:
            pass
        return drawn


_SUM = re.compile(
    r'^castlegraph_graph_statement_duration_seconds_sum\{statement="([^"]+)"\} (\S+)$', re.M
)


def statement_seconds(client: httpx.Client) -> dict[str, float]:
    """Seconds the service spent so far in the lock statements (its `/metrics`)."""
    text = client.get("/metrics").raise_for_status().text
    return {name: float(value) for name, value in _SUM.findall(text) if name in LOCK_STATEMENTS}


@dataclass
class Setup:
    """One setup's totals over the rounds."""

    name: str
    mentions: int = 0
    seconds: float = 0.0
    batches: int = 0
    statement_seconds: dict[str, float] = field(default_factory=dict)
    service_cpu: list[float] = field(default_factory=list)
    database_cpu: float = 0.0

    @property
    def rate(self) -> float:
        return self.mentions / self.seconds if self.seconds else 0.0

    def as_json(self) -> dict[str, Any]:
        per_batch = {
            f"{name}_ms_per_batch": round(1000 * total / self.batches, 1)
            for name, total in sorted(self.statement_seconds.items())
        }
        batch_ms = 1000 * self.seconds * len(STREAMS) / self.batches
        lock_ms = 1000 * self.statement_seconds.get("take_locks", 0.0) / self.batches
        return {
            "mentions": self.mentions,
            "seconds": round(self.seconds, 2),
            "mentions_per_s": round(self.rate, 1),
            "batch_ms": round(batch_ms, 1),
            **per_batch,
            "lock_wait_share": round(lock_ms / batch_ms, 4),
            "service_cpu_s": [round(c, 1) for c in self.service_cpu],
            "database_cpu_s": round(self.database_cpu, 1),
        }


@dataclass
class _Extractor:
    mix: KindMix
    rng: random.Random


def _extractors(
    stored: Sequence[Named], fresh: Sequence[Named], drawers: list[str], seed: int
) -> list[_Extractor]:
    return [
        _Extractor(
            KindMix(
                [n for n in stored if n.kind in kinds],
                [n for n in fresh if n.kind in kinds],
                drawers,
            ),
            random.Random(f"instances:{seed}:{number}"),
        )
        for number, kinds in enumerate(STREAMS)
    ]


def _post(client: httpx.Client, extractor: _Extractor, batches: int) -> int:
    posted = 0
    for _ in range(batches):
        _, body = extractor.mix.batch(BATCH, extractor.rng)
        response = client.post(
            "/api/mentions",
            content=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        if response.status_code != 200:
            status = f"{response.status_code}: {response.text[:300]}"
            raise RuntimeError(f"POST /api/mentions → {status}")
        posted += len(body["mentions"])
    return posted


def _round(
    setup: Setup,
    clients: Sequence[httpx.Client],
    services: Sequence[Service],
    extractors: Sequence[_Extractor],
    batches: int,
    database_pid: int | None,
) -> None:
    """Both extractors at once, extractor i on `clients[i]`, timed; the totals into `setup`."""
    scraped = {id(c): c for c in clients}.values()
    before = [statement_seconds(c) for c in scraped]
    cpu_before = [cpu_seconds(s.pid) for s in services]
    database_before = cpu_seconds(database_pid) if database_pid else 0.0
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=len(extractors)) as pool:
        posted = list(pool.map(lambda c, e: _post(c, e, batches), clients, extractors))
    setup.seconds += time.perf_counter() - started
    setup.mentions += sum(posted)
    setup.batches += batches * len(extractors)
    for client, earlier in zip(scraped, before, strict=True):
        for name, total in statement_seconds(client).items():
            setup.statement_seconds[name] = (
                setup.statement_seconds.get(name, 0.0) + total - earlier.get(name, 0.0)
            )
    spent = [cpu_seconds(s.pid) - b for s, b in zip(services, cpu_before, strict=True)]
    setup.service_cpu = [
        a + b for a, b in zip(setup.service_cpu or [0.0] * len(spent), spent, strict=True)
    ]
    if database_pid:
        setup.database_cpu += cpu_seconds(database_pid) - database_before


def run(entities: int, batches: int, rounds: int, seed: int) -> dict[str, Any]:
    """Seed one Neo4j, start two instances on it, alternate the setups `rounds` times."""
    names = NameGenerator(seed)
    rng = random.Random(f"{seed}:instances")
    taken: set[tuple[str, str]] = set()
    stored = names.distinct(entities, rng, taken)
    warm_up_batches = MAX_WARM_UP_ROUNDS * WARM_UP_BATCHES
    fresh = names.distinct((rounds * 2 * batches + warm_up_batches) * BATCH, rng, taken)
    with TemporaryDirectory(prefix="castlegraph-bench-") as tmp, ExitStack() as stack:
        root = Path(tmp)
        neo4j = start_database(stack, Backend.NEO4J, root / "neo4j.log")
        assert neo4j is not None
        print(f"loading {entities:,} entities…", file=sys.stderr)
        preload_neo4j(neo4j.uri, USER, PASSWORD, stored)
        services = [
            stack.enter_context(
                serving(root / f"data-{n}", root / f"service-{n}.log", READY_TIMEOUT_SECONDS, neo4j)
            )
            for n in range(2)
        ]
        for service in services:
            wait_for_entity_index(service.base_url)
        clients = [
            stack.enter_context(httpx.Client(base_url=s.base_url, timeout=REQUEST_TIMEOUT_SECONDS))
            for s in services
        ]
        extractors = _extractors(stored, fresh, make_drawers(clients[0], 300), seed)
        database_pid = neo4j.pid
        one, two = Setup("one instance"), Setup("two instances")
        print("warming up…", file=sys.stderr)
        warmed = jit.warm_up(
            lambda: _round(
                Setup("warm-up"), clients, services, extractors, WARM_UP_BATCHES, database_pid
            ),
            lambda: jit.compiler_cpu_seconds(database_pid),
            least=1,
            most=MAX_WARM_UP_ROUNDS,
        )
        print(f"  warmed up: {warmed.summary('rounds')}", file=sys.stderr)
        load_before = os.getloadavg()
        for number in range(rounds):
            _round(one, [clients[0]] * 2, services[:1], extractors, batches, database_pid)
            _round(two, clients, services, extractors, batches, database_pid)
            print(
                f"  round {number + 1}: one {one.rate:,.0f}/s, two {two.rate:,.0f}/s",
                file=sys.stderr,
            )
        load_after = os.getloadavg()
    ratio = two.rate / one.rate if one.rate else 0.0
    print(
        f"one instance {one.rate:,.0f} mentions/s, two instances {two.rate:,.0f} mentions/s: "
        f"{ratio:.2f}×",
        file=sys.stderr,
    )
    return {
        "entities": entities,
        "batch": BATCH,
        "streams": [sorted(kinds) for kinds in STREAMS],
        "one_instance": one.as_json(),
        "two_instances": two.as_json(),
        "ratio": round(ratio, 2),
        "warm_up_rounds": warmed.steps,
        "warm_up_compiler_cpu_ms": warmed.compiler_cpu_ms,
        "load_average_1m": [round(load_before[0], 2), round(load_after[0], 2)],
        "cpu_count": os.cpu_count(),
    }
