"""Bulk-mentions benchmark (design §10): resolution throughput as the graph grows.

For each size N, N seeded entities (`bench.names`) are bulk-loaded (`bench.preload`), the real
service starts on them, and batches from `bench.mention_mix` are posted to `POST
/api/mentions` by one keep-alive client per service, as an extractor would. The sizes run
interleaved (`run`); with `peers`, `bench.peers` times the peers' approaches on the same names.
"""

import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import httpx

from bench import jit
from bench.jit import WarmUp
from bench.mention_mix import MentionMix
from bench.mention_results import (
    BATCH,
    SizeResult,
    peak_mb,
    print_peers,
    print_results,
    summary,
)
from bench.names import Named, NameGenerator
from bench.neo4j_server import PASSWORD, USER
from bench.peers import SAMPLE, PeerRates, time_peers
from bench.preload import READY_TIMEOUT_SECONDS, preload, preload_neo4j
from bench.service import (
    Backend,
    Service,
    entity_index_facts,
    memory_facts,
    service_rss_mb,
    serving,
    start_database,
    stat_cpu_seconds,
)

WARMUP_BATCHES = 2
"""Untimed batches before the timed ones; on Neo4j, more until its JIT compiler is quiet."""
MAX_WARMUP_BATCHES = 80
"""At most this many: Neo4j's compiler settled after ~40 at 100 k entities (`bench.jit`)."""
DRAWERS = 300
NEW_SHARE_MARGIN = 0.5
"""Fresh names prepared per mention posted: the mix draws new names for 20 % of mentions."""
REQUEST_TIMEOUT_SECONDS = 300.0


@dataclass
class _Target:
    """One size under test: its running service, client, mention stream and results."""

    result: SizeResult
    service: Service
    client: httpx.Client
    mix: MentionMix
    rng: random.Random
    stored: list[Named]


def make_drawers(client: httpx.Client, count: int) -> list[str]:
    ids = []
    for i in range(count):
        content = f"Extraction source {i}: meeting notes that mention people, tools and places."
        response = client.post("/api/wings/bench/rooms/mentions/drawers", json={"content": content})
        if response.status_code not in (200, 201):
            raise RuntimeError(f"drawer {i}: {response.status_code} {response.text[:300]}")
        ids.append(response.json()["drawer"]["id"])
    return ids


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process so far (0.0 once it is gone)."""
    return stat_cpu_seconds(Path(f"/proc/{pid}/stat"))


def post_batch(target: _Target, timed: bool) -> None:
    """One batch; when `timed`, its wall time, CPU times and rules go into the results.

    The body is encoded before the clock starts and the answer decoded after it stops: the
    time is what the service and the wire cost, not this client's JSON work.
    """
    result, service = target.result, target.service
    categories, body = target.mix.batch(BATCH, target.rng)
    content = json.dumps(body).encode()
    database = service.database_pid()
    cpu_before = cpu_seconds(service.pid), cpu_seconds(database) if database else 0.0
    started = time.perf_counter()
    response = target.client.post(
        "/api/mentions", content=content, headers={"content-type": "application/json"}
    )
    elapsed = time.perf_counter() - started
    cpu_after = cpu_seconds(service.pid), cpu_seconds(database) if database else 0.0
    if response.status_code != 200:
        raise RuntimeError(f"POST /api/mentions → {response.status_code}: {response.text[:500]}")
    if not timed:
        return
    result.batch_seconds.append(elapsed)
    result.service_cpu_ms.append((cpu_after[0] - cpu_before[0]) * 1000)
    result.database_cpu_ms.append((cpu_after[1] - cpu_before[1]) * 1000)
    for category, answer in zip(categories, response.json()["results"], strict=True):
        rule = answer["observation"]["rule"]
        result.rules[rule] += 1
        result.by_category.setdefault(category, Counter())[rule] += 1
        result.outcomes["created"] += answer["created"]
        result.outcomes["linked"] += answer["linked"]
        result.outcomes["with_review_links"] += bool(answer["possibly_same_as"])


INDEX_TIMEOUT_SECONDS = 1800.0


def wait_for_entity_index(base_url: str) -> None:
    """Until the service's in-memory entity index is built (or off): the timed batches measure
    the steady state, not the database's probes that answer meanwhile."""
    deadline = time.monotonic() + INDEX_TIMEOUT_SECONDS
    with httpx.Client(base_url=base_url, timeout=10.0) as client:
        while client.get("/api/health").json().get("entity_index") == "building":
            if time.monotonic() > deadline:
                raise RuntimeError("the entity index was not built in time")
            time.sleep(0.5)


def start_size(
    stack: ExitStack, root: Path, size: int, batches: int, seed: int, backend: Backend
) -> _Target:
    """Generate and load `size` entities, start a service on them, create the drawers.

    With `--backend neo4j` each size gets a Neo4j server of its own (`bench.neo4j_server`: the
    sizes run at once, and Community edition has one database), preloaded through
    `Neo4jStore`; the JVM's memory and CPU time are the database's."""
    names = NameGenerator(seed)
    rng = random.Random(f"{seed}:{size}")
    started = time.perf_counter()
    taken: set[tuple[str, str]] = set()
    stored = names.distinct(size, rng, taken)
    fresh_count = int((MAX_WARMUP_BATCHES + batches) * BATCH * NEW_SHARE_MARGIN)
    fresh = names.distinct(fresh_count, rng, taken)
    generate_seconds = time.perf_counter() - started
    data_dir = root / f"data-{size}"
    neo4j = start_database(stack, backend, root / f"neo4j-{size}.log")
    print(f"loading {size:,} entities…", file=sys.stderr)
    if neo4j is None:
        loaded = preload(data_dir, stored)
    else:
        loaded = preload_neo4j(neo4j.uri, USER, PASSWORD, stored)
    rate = size / loaded.load_seconds
    print(f"  loaded in {loaded.load_seconds:.1f} s ({rate:,.0f}/s)", file=sys.stderr)
    started = time.perf_counter()
    log_path = root / f"service-{size}.log"
    service = stack.enter_context(serving(data_dir, log_path, READY_TIMEOUT_SECONDS, neo4j))
    wait_for_entity_index(service.base_url)
    result = SizeResult(size, generate_seconds, loaded, time.perf_counter() - started)
    result.database_start_seconds = neo4j.start_seconds if neo4j else None
    result.memory["service_started_rss_mb"] = service_rss_mb(service.pid)
    client = stack.enter_context(
        httpx.Client(base_url=service.base_url, timeout=REQUEST_TIMEOUT_SECONDS)
    )
    mix = MentionMix(stored, fresh, make_drawers(client, DRAWERS))
    return _Target(result, service, client, mix, random.Random(f"mix:{seed}:{size}"), stored)


def run(
    sizes: Sequence[int], batches: int, seed: int, backend: Backend, *, peers: bool = True
) -> dict[str, Any]:
    """All sizes at once, batches interleaved across them; returns the JSON results.

    Every service runs at once (idle while another works) and batch i goes to each in turn: on
    a shared machine the load of other programs drifts within minutes, and interleaving makes
    that drift hit every size alike, so the cost ratio between sizes means something even when
    the absolute times wander. The first batches warm the services up and are not timed; the
    CPU time the service and its database spent per batch is reported beside the wall time."""
    with TemporaryDirectory(prefix="castlegraph-bench-") as tmp, ExitStack() as stack:
        root = Path(tmp)
        targets = [start_size(stack, root, size, batches, seed, backend) for size in sorted(sizes)]
        warmed = warm_up(targets)
        print(f"posting {batches} batches of {BATCH:,} mentions to each size…", file=sys.stderr)
        for number in range(batches):
            for target in targets:
                post_batch(target, timed=True)
            if (number + 1) % 5 == 0:
                medians = ", ".join(
                    f"{t.result.size:,}: {t.result.stat_ms('median'):.0f} ms" for t in targets
                )
                print(f"  {number + 1} batches; median {medians}", file=sys.stderr)
        for target in targets:
            service = target.service
            target.result.warm_up = warmed
            target.result.memory |= {
                **memory_facts(service),
                "service_peak_mb": peak_mb(service.pid),
                **entity_index_facts(target.client),
            }
        results = [target.result for target in targets]
        rates = [_peers(target) for target in targets] if peers else []
    print_results(results, backend)
    found = summary(results, backend)
    if rates:
        print_peers(results, rates)
        found["peers"] = [
            {**rate.as_json(), "castlegraph_per_s": round(result.rate, 1)}
            for rate, result in zip(rates, results, strict=True)
        ]
    return found


def warm_up(targets: Sequence[_Target]) -> WarmUp:
    """Untimed batches to each size in turn: `WARMUP_BATCHES`, then on Neo4j more until the
    compiler threads of its JVMs are quiet (`bench.jit`): the timed batches measure a warm
    server, as one that has run for a while is, not HotSpot compiling Neo4j's write paths."""
    jvms = [t.service.neo4j.pid for t in targets if t.service.neo4j is not None]

    def step() -> None:
        for target in targets:
            post_batch(target, timed=False)

    warmed = jit.warm_up(
        step,
        lambda: sum(jit.compiler_cpu_seconds(pid) for pid in jvms),
        least=WARMUP_BATCHES,
        most=MAX_WARMUP_BATCHES,
    )
    if jvms:
        print(f"  warmed up: {warmed.summary('batches')}", file=sys.stderr)
    return warmed


def _peers(target: _Target) -> PeerRates:
    """The peers on a sample drawn from this size's mix (`bench.peers`): the ratio castlegraph
    / peer, measured in the run."""
    size = target.result.size
    print(f"timing the peers at {size:,} entities…", file=sys.stderr)
    _, body = target.mix.batch(SAMPLE, random.Random(f"peers:{size}"))
    return time_peers(size, target.stored, body["mentions"])
