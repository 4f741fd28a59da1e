"""Skew benchmark (design §10): a batch aimed at a high-degree node against a spread batch.

A batch into a drawer with 20,000 mentions, of an entity many drawers mention, or of one name
whose key thousands of other kinds share must cost little more than a batch spread over ordinary
drawers: no statement may expand every edge of a node whose degree users control, and a
mention's cost never grows with other kinds sharing its key (design §8.1). `run` says how.
"""

import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import httpx

from bench.mention_results import BATCH
from bench.names import Named, NameGenerator
from bench.neo4j_server import PASSWORD, USER
from bench.preload import READY_TIMEOUT_SECONDS, preload, preload_neo4j
from bench.report import Cell, print_table
from bench.service import Backend, serving, start_database
from bench.targets import bound

HOT_DRAWER_MENTIONS = 20_000
TARGET_RATIOS = {
    "hot drawer": bound("skew", "skew_hot_drawer"),
    "hot entity": bound("skew", "skew_hot_entity"),
    "shared key": bound("skew", "skew_shared_key"),
}
"""design §10: a skewed batch costs at most twice a spread batch, a shared key's 1.5 times."""
SHARED_NAME = "Ada Lovelace"
SHARED_KINDS = 10_000
SPREAD_DRAWERS = 300
WARMUP_ROUNDS = 2
DRAWER_CLIENTS = 4
REQUEST_TIMEOUT_SECONDS = 600.0
CASES = ("spread", "hot drawer", "hot entity", "shared key")


@dataclass
class _Plan:
    """What the batches draw from: the stored names, the drawers, the fresh names left."""

    stored: list[Named]
    fresh: Iterator[Named]
    spread: list[str]
    hot_drawer: str
    hot_entity: Named
    linked_entity_drawers: list[str]
    unlinked_entity_drawers: list[str]
    shared_kinds: int = SHARED_KINDS
    spread_pairs: list[tuple[str, Named]] = field(default_factory=list)
    """(drawer, name) posted to the spread drawers so far: the spread batch's repeats."""
    new_kinds: int = 0
    """Kinds never seen that shared-key batches have posted so far."""


def _mention(drawer: str, named: Named) -> dict[str, Any]:
    return {"drawer": drawer, "name": named.name, "kind": named.kind, "extractor": "bench"}


def _post(client: httpx.Client, mentions: Sequence[dict[str, Any]]) -> float:
    started = time.perf_counter()
    response = client.post("/api/mentions", json={"mentions": list(mentions)})
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        raise RuntimeError(f"POST /api/mentions → {response.status_code}: {response.text[:500]}")
    return elapsed


def _drawers(base_url: str, room: str, count: int, seed: int) -> list[str]:
    """`count` drawers of distinct random words (no near copies), by a few clients at once."""

    def write(part: range) -> list[str]:
        rng = random.Random(f"{seed}:{room}:{part.start}")
        ids = []
        with httpx.Client(base_url=base_url, timeout=REQUEST_TIMEOUT_SECONDS) as client:
            for i in part:
                words = " ".join(
                    "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=7)) for _ in range(12)
                )
                response = client.post(
                    f"/api/wings/bench/rooms/{room}/drawers", json={"content": f"{i} {words}"}
                )
                if response.status_code != 201:
                    raise RuntimeError(f"drawer {i}: {response.status_code} {response.text[:300]}")
                ids.append(response.json()["drawer"]["id"])
        return ids

    step = -(-count // DRAWER_CLIENTS)
    parts = [range(start, min(start + step, count)) for start in range(0, count, step)]
    with ThreadPoolExecutor(DRAWER_CLIENTS) as pool:
        return [drawer for ids in pool.map(write, parts) for drawer in ids]


def _fill(client: httpx.Client, plan: _Plan) -> float:
    """The hot drawer's 20,000 mentions and the hot entity's; returns the seconds it took."""
    started = time.perf_counter()
    hot = [_mention(plan.hot_drawer, named) for named in plan.stored[:HOT_DRAWER_MENTIONS]]
    hot += [_mention(drawer, plan.hot_entity) for drawer in plan.linked_entity_drawers]
    for start in range(0, len(hot), BATCH):
        _post(client, hot[start : start + BATCH])
    return time.perf_counter() - started


def _batch(case: str, plan: _Plan, rng: random.Random) -> list[dict[str, Any]]:
    """Half repeats (already linked: the existing-edge check finds them), half links not made
    yet (names never seen, or for the hot entity drawers that do not mention it yet):

    - spread: pairs posted during the warm-up and fresh names, over the ordinary drawers;
    - hot drawer: its 20,000 entities and fresh names, all into the hot drawer;
    - hot entity: its name from drawers that mention it and from drawers that do not;
    - shared key: `SHARED_NAME` over the ordinary drawers, half under stored kinds (an exact
      match each, its own kind among thousands under the key), half under kinds never seen (a
      new entity each: 1,000 new kinds a batch, which the next batches then share).
    """
    half = BATCH // 2
    if case == "hot entity":
        linked = rng.sample(plan.linked_entity_drawers, half)
        fresh = [plan.unlinked_entity_drawers.pop() for _ in range(half)]
        return [_mention(d, plan.hot_entity) for d in linked + fresh]
    if case == "shared key":
        kinds = rng.sample(range(plan.shared_kinds), half)
        stored = [Named(SHARED_NAME, f"shared {n}") for n in kinds]
        new = [Named(SHARED_NAME, f"new {plan.new_kinds + n}") for n in range(BATCH - half)]
        plan.new_kinds += len(new)
        return [_mention(rng.choice(plan.spread), named) for named in stored + new]
    if case == "hot drawer":
        repeats = rng.sample(plan.stored[:HOT_DRAWER_MENTIONS], half)
        return [
            _mention(plan.hot_drawer, n) for n in repeats + [next(plan.fresh) for _ in range(half)]
        ]
    pairs = rng.sample(plan.spread_pairs, min(half, len(plan.spread_pairs)))
    new = [(rng.choice(plan.spread), next(plan.fresh)) for _ in range(BATCH - len(pairs))]
    plan.spread_pairs += new
    return [_mention(drawer, named) for drawer, named in pairs + new]


def run(
    entities: int,
    entity_drawers: int,
    rounds: int,
    seed: int,
    backend: Backend,
    shared_kinds: int = SHARED_KINDS,
) -> dict[str, Any]:
    """Build the skew, post `rounds` batches of each case in turn; returns the JSON results.

    One service on a fresh graph gets `entities` preloaded entities (`bench.preload`) and
    `SHARED_NAME` under `shared_kinds` kinds of its own (`shared 0`, ...), a few hundred
    ordinary drawers, one hot drawer and `entity_drawers` drawers, all through the API; then
    `_fill` gives the hot drawer 20,000 mentions and the hot entity one from every one of the
    `entity_drawers`. The cases (`_batch`) are posted interleaved, so the drift of a shared
    machine hits each alike; the cost ratio of each skewed case to `spread` is what the budget
    bounds."""
    names = NameGenerator(seed)
    rng = random.Random(f"skew:{seed}")
    taken: set[tuple[str, str]] = set()
    stored = names.distinct(max(entities, HOT_DRAWER_MENTIONS + 1), rng, taken)
    shared = [Named(SHARED_NAME, f"shared {n}") for n in range(max(shared_kinds, BATCH // 2))]
    fresh = names.distinct(BATCH * (WARMUP_ROUNDS + rounds) * 2, rng, taken)
    unlinked_needed = (BATCH // 2) * (WARMUP_ROUNDS + rounds)
    with TemporaryDirectory(prefix="castlegraph-bench-") as tmp, ExitStack() as stack:
        root = Path(tmp)
        neo4j = start_database(stack, backend, root / "neo4j.log")
        print(f"loading {len(stored) + len(shared):,} entities…", file=sys.stderr)
        if neo4j is None:
            preload(root / "data", stored + shared)
        else:
            preload_neo4j(neo4j.uri, USER, PASSWORD, stored + shared)
        service = stack.enter_context(
            serving(root / "data", root / "service.log", READY_TIMEOUT_SECONDS, neo4j)
        )
        client = stack.enter_context(
            httpx.Client(base_url=service.base_url, timeout=REQUEST_TIMEOUT_SECONDS)
        )
        print(f"creating {entity_drawers + unlinked_needed + SPREAD_DRAWERS + 1:,} drawers…",
              file=sys.stderr)  # fmt: skip
        spread = _drawers(service.base_url, "spread", SPREAD_DRAWERS + 1, seed)
        entity_side = _drawers(service.base_url, "entity", entity_drawers + unlinked_needed, seed)
        plan = _Plan(
            stored=stored[1:],
            fresh=iter(fresh),
            spread=spread[1:],
            hot_drawer=spread[0],
            hot_entity=stored[0],
            linked_entity_drawers=entity_side[:entity_drawers],
            unlinked_entity_drawers=entity_side[entity_drawers:],
            shared_kinds=len(shared),
        )
        print("filling the hot drawer and the hot entity…", file=sys.stderr)
        fill_seconds = _fill(client, plan)
        times: dict[str, list[float]] = {case: [] for case in CASES}
        for number in range(WARMUP_ROUNDS + rounds):
            for case in CASES:
                elapsed = _post(client, _batch(case, plan, rng))
                if number >= WARMUP_ROUNDS:
                    times[case].append(elapsed)
    return _report(times, entities, entity_drawers, len(shared), fill_seconds, backend)


def _report(
    times: dict[str, list[float]],
    entities: int,
    entity_drawers: int,
    shared_kinds: int,
    fill_seconds: float,
    backend: Backend,
) -> dict[str, Any]:
    medians = {case: statistics.median(seconds) * 1000 for case, seconds in times.items()}
    rows: list[list[Cell]] = []
    for case in CASES:
        ratio = medians[case] / medians["spread"]
        met = ratio <= TARGET_RATIOS.get(case, 0.0)
        verdict = "-" if case == "spread" else ("met" if met else "missed")
        rows.append(
            [case, len(times[case]), medians[case], max(times[case]) * 1000, ratio, verdict]
        )
    print_table(
        f"Skew on {backend}: batches of {BATCH:,} mentions, half repeats (hot drawer holds "
        f"{HOT_DRAWER_MENTIONS:,} mentions, hot entity mentioned by {entity_drawers:,} drawers, "
        f"shared key stored under {shared_kinds:,} kinds; target ≤ "
        + ", ".join(f"{case} {ratio:g}×" for case, ratio in TARGET_RATIOS.items())
        + " spread)",
        ["batch", "batches", "median ms", "max ms", "× spread", "target"],
        rows,
    )
    return {
        "backend": str(backend),
        "entities": entities,
        "hot_drawer_mentions": HOT_DRAWER_MENTIONS,
        "hot_entity_drawers": entity_drawers,
        "shared_key_kinds": shared_kinds,
        "fill_seconds": round(fill_seconds, 1),
        "cases": {
            case: {
                "median_ms": round(medians[case], 2),
                "ratio_to_spread": round(medians[case] / medians["spread"], 3),
                "batch_ms": [round(s * 1000, 2) for s in times[case]],
            }
            for case in CASES
        },
        "target_ratios": TARGET_RATIOS,
    }
