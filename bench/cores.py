"""`python -m bench cores`: the pure-Python core and the compiled one on the same room, in one
sitting (design §10: each target measured with the pure-Python core beside it).

A room of N drawers is filled once by checkpoint jobs and its data directory copied per core;
on each copy a service with that `CASTLEGRAPH_CORE` times single writes (p50/p99, planted near
copies' recall) and one checkpoint (items/s, verdicts, which must not differ between cores),
with the service's CPU time beside the wall times.
"""

import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from bench import bulk, drawers, targets
from bench.corpus import Corpus, Kind, Text
from bench.planted import planted
from bench.preload import READY_TIMEOUT_SECONDS
from bench.report import Cell, core_facts, print_table
from bench.service import (
    Service,
    child_pids,
    database_children,
    memory_facts,
    serving,
    stat_cpu_seconds,
    until_quiet,
)

CORES = ("python", "native")
INDEX_READY_SECONDS = 600.0


def service_cpu_seconds(service: Service) -> float:
    """CPU time (user and system) of the service and its children that are not the database
    (the jobs' ahead worker): on a shared machine the wall times swing with the other programs,
    the CPU a core spends does not, so the two cores compare best on this."""
    database = set(database_children(service.pid))
    others = (c for c in child_pids(service.pid) if c not in database)
    return sum(stat_cpu_seconds(Path(f"/proc/{pid}/stat")) for pid in (service.pid, *others))


def _wait_for_indexes(service: Service) -> float:
    """Seconds until health says both in-memory indexes are ready: a write would otherwise
    wait for the drawer index, and the first ones would time its build."""
    started = time.perf_counter()
    with httpx.Client(base_url=service.base_url, timeout=10.0) as client:
        while time.perf_counter() - started < INDEX_READY_SECONDS:
            body = client.get("/api/health").json()
            if body.get("drawer_index") == "ready" and body.get("entity_index") == "ready":
                return time.perf_counter() - started
            time.sleep(0.5)
    raise RuntimeError(f"the in-memory indexes were not ready after {INDEX_READY_SECONDS} s")


def _wait_until_quiet(service: Service) -> float:
    """Seconds until the service, its indexes ready, has gone quiet: the drawer index, once
    ready, makes the room's newest drawers known (`DrawerIndex.warm`: ~10 s of CPU at 100 k
    drawers), and single writes timed meanwhile measured that too (the GIL and two cores
    shared: p50 ~8 ms and ~7 ms of service CPU per write, where a quiet service spends ~3)."""
    return until_quiet(lambda: service_cpu_seconds(service), "the service")


def _fill(service: Service, room: str, texts: list[Text]) -> float:
    with httpx.Client(base_url=service.base_url, timeout=bulk.REQUEST_TIMEOUT_SECONDS) as client:
        started = time.perf_counter()
        for start in range(0, len(texts), bulk.JOB_ITEMS):
            bulk.checkpoint(client, room, texts[start : start + bulk.JOB_ITEMS])
            print(f"  {room}: {min(len(texts), start + bulk.JOB_ITEMS):,} filled", file=sys.stderr)
        return time.perf_counter() - started


def _one_core(
    name: str, data_dir: Path, log: Path, size: int, writes: list[Text], batch: list[Text],
    triples: list[tuple[str, str, str]],
) -> dict[str, Any]:  # fmt: skip
    """Single writes, planted copies and one checkpoint on a copy of the filled room."""
    # A room of 100 k takes FalkorDB over 30 s to read (more on a loaded machine): the wait
    # for a preloaded service, not the default minute.
    environment = {"CASTLEGRAPH_CORE": name}
    with serving(data_dir, log, READY_TIMEOUT_SECONDS, environment=environment) as service:
        index_seconds = _wait_for_indexes(service)
        quiet_seconds = _wait_until_quiet(service)
        print(f"{name} core: timing {len(writes)} single writes…", file=sys.stderr)
        singles = drawers.SizeResult(size=size, fill_seconds=0.0, fill_statuses=Counter())
        cpu = service_cpu_seconds(service)
        drawers.measure(service, size, writes, singles)
        write_cpu = service_cpu_seconds(service) - cpu
        drawers.measure_recall(service, size, triples, singles)
        print(f"{name} core: timing a checkpoint of {len(batch):,} items…", file=sys.stderr)
        cpu = service_cpu_seconds(service)
        with httpx.Client(base_url=service.base_url, timeout=bulk.REQUEST_TIMEOUT_SECONDS) as c:
            job = bulk.checkpoint(c, f"room-{size}", batch)
        checkpoint_cpu = service_cpu_seconds(service) - cpu
        seconds = bulk.seconds_of(job)
        memory = memory_facts(service)
    return {
        "core": core_facts(name),
        "index_ready_seconds": round(index_seconds, 1),
        "quiet_after_seconds": round(quiet_seconds, 1),
        "writes": len(singles.latencies_ms),
        **{f"{stat}_ms": round(singles.stat(stat), 3) for stat in ("p50", "p90", "p99", "mean")},
        "outcomes": {kind: dict(counts) for kind, counts in singles.outcomes.items()},
        "planted_recall": {kind: dict(counts) for kind, counts in singles.recall.items()},
        "round_trips": dict(sorted(singles.round_trips.items())),
        "service_cpu_ms_per_write": round(write_cpu * 1000 / (len(writes) + 0.0), 3),
        "checkpoint_items": len(batch),
        "checkpoint_service_cpu_ms_per_item": round(checkpoint_cpu * 1000 / len(batch), 3),
        "checkpoint_seconds": round(seconds, 3),
        "checkpoint_items_per_s": round(len(batch) / seconds, 1),
        "checkpoint_result": {k: v for k, v in job["result"].items() if k != "failed"},
        **memory,
    }


def generated(
    size: int, samples: int, seed: int
) -> tuple[Corpus, random.Random, list[Text], list[Text], list[Text]]:
    """The room of `size` and the timed single writes (warm-up first) for this seed, with the
    corpus, its random state and the texts so far, which the planted copies and the
    checkpoint's items go on from (`bench.profile_drawers` replays the same writes)."""
    corpus = Corpus(seed)
    rng = random.Random(f"{seed}:{size}")
    room = corpus.room(size, rng, bulk.FILL_NEAR, bulk.FILL_EXACT)
    history = list(room)
    writes = [Text(Kind.NEW, corpus.text(rng)) for _ in range(drawers.WARMUP_WRITES)]
    while len(writes) < drawers.WARMUP_WRITES + samples:
        writes.append(corpus.follow(history, rng, drawers.SAMPLE_NEAR, drawers.SAMPLE_EXACT))
        history.append(writes[-1])
    return corpus, rng, room, history, writes


def workload(
    size: int, samples: int, items: int, seed: int
) -> tuple[list[Text], list[Text], list[tuple[str, str, str]], list[Text]]:
    """The room, the single writes, the planted copies and the checkpoint's items of a run, in
    the order `run` draws them (`bench.profile_checkpoints` replays the same checkpoint)."""
    corpus, rng, room, history, writes = generated(size, samples, seed)
    triples = planted(corpus, rng, drawers.PLANTED_PER_KIND)
    batch = [corpus.follow(history, rng, bulk.TIMED_NEAR, bulk.TIMED_EXACT) for _ in range(items)]
    return room, writes, triples, batch


def run(size: int, samples: int, items: int, seed: int, kept: Path | None = None) -> dict[str, Any]:
    """Fill a room of `size` once, then measure each core on its own copy of it. With `kept`,
    the filled room is kept in it (`room-SIZE-seed-SEED`) and taken from there the next time
    (its fill takes ~10 minutes at 100 k: a before and an after compare on the same room)."""
    room, writes, triples, batch = workload(size, samples, items, seed)
    results: dict[str, Any] = {"room_size": size, "cores": {}}
    with tempfile.TemporaryDirectory(prefix="castlegraph-cores-") as tmp:
        filled = (kept or Path(tmp)) / f"room-{size}-seed-{seed}"
        if filled.exists():
            print(f"room-{size} taken from {filled}", file=sys.stderr)
        else:
            print(f"filling room-{size} with {size:,} drawers by checkpoints…", file=sys.stderr)
            filling = filled.with_name(f"{filled.name}.filling")
            shutil.rmtree(filling, ignore_errors=True)
            with serving(filling, Path(tmp) / "fill.log") as service:
                results["fill_seconds"] = round(_fill(service, f"room-{size}", room), 1)
            filling.rename(filled)
        for name in CORES:
            copy = Path(tmp) / name
            shutil.copytree(filled, copy)
            log = Path(tmp) / f"{name}.log"
            results["cores"][name] = _one_core(name, copy, log, size, writes, batch, triples)
            shutil.rmtree(copy)
    _print(results)
    targets.print_verdicts("cores", targets.judge("cores", results), "embedded")
    return results


COLUMNS = [
    "core", "version", "writes", "p50 ms", "p99 ms", "mean ms", "CPU ms/write", "checkpoint /s",
    "CPU ms/item", "RSS MB",
]  # fmt: skip


def _print(results: dict[str, Any]) -> None:
    size = results["room_size"]
    rows: list[list[Cell]] = [
        [name, r["core"]["version"], r["writes"], r["p50_ms"], r["p99_ms"], r["mean_ms"],
         r["service_cpu_ms_per_write"], r["checkpoint_items_per_s"],
         r["checkpoint_service_cpu_ms_per_item"], r.get("service_rss_mb")]
        for name, r in results["cores"].items()
    ]  # fmt: skip
    print_table(
        f"Drawer writes in a room of {size:,} and a checkpoint into it, per core (embedded)",
        COLUMNS,
        rows,
    )
    recall: list[list[Cell]] = [
        [name, kind, counts["planted"], counts["linked"]]
        for name, r in results["cores"].items()
        for kind, counts in sorted(r["planted_recall"].items())
    ]
    columns = ["core", "kind", "planted", "linked"]
    print_table("Planted near copies found, per core", columns, recall)
    verdicts: list[list[Cell]] = [
        [name, *(r["checkpoint_result"].get(k) for k in ("items", "stored", "duplicates"))]
        for name, r in results["cores"].items()
    ]
    print_table(
        "The checkpoint's verdicts per core (the same under both)",
        ["core", "items", "stored", "duplicates"],
        verdicts,
    )
