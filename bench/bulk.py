"""Bulk-write benchmark (design §10): a checkpoint job of 10 k items into a room of 100 k.

For each room size a fresh service (empty graph) fills a room through checkpoint jobs, then one
more checkpoint of new texts and near and exact copies is timed from its `started_at` to its
`finished_at`, its counts checked against the kinds planted. Single writes over HTTP into the
same room, in the same run, say what batching buys.
"""

import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx

from bench.corpus import Corpus, Kind, Text
from bench.report import Cell, print_table
from bench.service import Backend, Service, memory_facts, running_service
from bench.targets import bound

WING = "bench"
JOB_ITEMS = 10_000
"""Items per checkpoint job: the default cap (`api.max_batch` × 10)."""
FILL_NEAR, FILL_EXACT = 0.05, 0.02
TIMED_NEAR, TIMED_EXACT = 0.10, 0.05
SINGLE_WRITES = 300
"""Single HTTP writes timed beside the checkpoint, into the same room."""
TARGET_ITEMS_PER_S = bound("bulk", "items_per_s")
JOB_TIMEOUT_SECONDS = 3_600.0
POLL_SECONDS = 0.2
REQUEST_TIMEOUT_SECONDS = 120.0


@dataclass
class SizeResult:
    size: int
    items: int
    fill_seconds: float = 0.0
    fill_job_seconds: float = 0.0
    job_seconds: float = 0.0
    result: dict[str, Any] = field(default_factory=dict)
    kinds: Counter[str] = field(default_factory=Counter)
    single_seconds: float = 0.0
    memory: dict[str, float | None] = field(default_factory=dict)

    @property
    def items_per_s(self) -> float:
        return self.items / self.job_seconds

    @property
    def single_per_s(self) -> float:
        return SINGLE_WRITES / self.single_seconds

    @property
    def fill_per_s(self) -> float:
        return self.size / self.fill_job_seconds if self.fill_job_seconds else 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "room_size": self.size,
            "items": self.items,
            "fill_seconds": round(self.fill_seconds, 2),
            "fill_items_per_s": round(self.fill_per_s, 1),
            "job_seconds": round(self.job_seconds, 3),
            "items_per_s": round(self.items_per_s, 1),
            "single_writes_per_s": round(self.single_per_s, 1),
            "batch_over_single": round(self.items_per_s / self.single_per_s, 2),
            "result": {k: v for k, v in self.result.items() if k != "failed"},
            "failed": len(self.result.get("failed", [])),
            "planted": dict(self.kinds),
            "met": self.items_per_s >= TARGET_ITEMS_PER_S,
            **self.memory,
        }


def seconds_of(job: dict[str, Any]) -> float:
    """A finished job's run, from its `started_at` to its `finished_at`."""
    started = datetime.fromisoformat(job["started_at"])
    finished = datetime.fromisoformat(job["finished_at"])
    return (finished - started).total_seconds()


def checkpoint(client: httpx.Client, room: str, texts: Sequence[Text]) -> dict[str, Any]:
    """Post one checkpoint job and wait (with a deadline) until it ends; its final record."""
    body = {"wing": WING, "room": room, "items": [{"content": t.content} for t in texts]}
    answer = client.post("/api/checkpoints", json=body)
    if answer.status_code != 202:
        raise RuntimeError(f"POST /api/checkpoints → {answer.status_code}: {answer.text[:500]}")
    job_id = answer.json()["job"]["id"]
    deadline = time.monotonic() + JOB_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        job: dict[str, Any] = client.get(f"/api/jobs/{job_id}").json()["job"]
        if job["status"] in ("succeeded", "failed"):
            if job["status"] == "failed":
                raise RuntimeError(f"checkpoint job failed: {job.get('error')}")
            return job
        time.sleep(POLL_SECONDS)
    raise RuntimeError(f"checkpoint job {job_id} still running after {JOB_TIMEOUT_SECONDS} s")


def run_size(service: Service, corpus: Corpus, size: int, items: int, seed: int) -> SizeResult:
    """Fill a room of `size` through checkpoint jobs (their rate is reported too: the same path
    on a growing room), time a checkpoint of `items` items into it, then single writes."""
    rng = random.Random(f"{seed}:{size}")
    room = f"room-{size}"
    result = SizeResult(size=size, items=items)
    written = corpus.room(size, rng, FILL_NEAR, FILL_EXACT)
    with httpx.Client(base_url=service.base_url, timeout=REQUEST_TIMEOUT_SECONDS) as client:
        started = time.perf_counter()
        for start in range(0, size, JOB_ITEMS):
            job = checkpoint(client, room, written[start : start + JOB_ITEMS])
            result.fill_job_seconds += seconds_of(job)
            print(f"  {room}: {min(size, start + JOB_ITEMS):,}/{size:,} filled", file=sys.stderr)
        result.fill_seconds = time.perf_counter() - started
        timed: list[Text] = []
        history = list(written)
        while len(timed) < items:
            text = corpus.follow(history, rng, TIMED_NEAR, TIMED_EXACT)
            timed.append(text)
            history.append(text)
        result.kinds = Counter(text.kind.value for text in timed)
        print(f"timing a checkpoint of {items:,} items into {room}…", file=sys.stderr)
        job = checkpoint(client, room, timed)
        result.job_seconds = seconds_of(job)
        result.result = job["result"]
        singles = [
            corpus.follow(history, rng, TIMED_NEAR, TIMED_EXACT) for _ in range(SINGLE_WRITES)
        ]
        url = f"/api/wings/{WING}/rooms/{room}/drawers"
        started = time.perf_counter()
        for text in singles:
            answer = client.post(url, json={"content": text.content})
            if answer.status_code not in (200, 201):
                raise RuntimeError(f"POST {url} → {answer.status_code}: {answer.text[:500]}")
        result.single_seconds = time.perf_counter() - started
    result.memory = memory_facts(service)
    return result


def run(sizes: Sequence[int], items: int, seed: int, backend: Backend) -> dict[str, Any]:
    corpus = Corpus(seed)
    results: list[SizeResult] = []
    for size in sorted(sizes):
        with running_service(backend) as service:
            results.append(run_size(service, corpus, size, items, seed))
    _print(results, backend)
    return {
        "backend": str(backend),
        "sizes": [r.summary() for r in results],
        "targets": {"items_per_s": TARGET_ITEMS_PER_S, "at_room_size": 100_000},
    }


def _print(results: Sequence[SizeResult], backend: Backend) -> None:
    rows: list[list[Cell]] = [
        [r.size, r.items, r.job_seconds, r.items_per_s, r.single_per_s,
         r.items_per_s / r.single_per_s, r.fill_per_s,
         "met" if r.items_per_s >= TARGET_ITEMS_PER_S else "missed"]
        for r in results
    ]  # fmt: skip
    print_table(
        f"Checkpoint job into a room on {backend} (target ≥ {TARGET_ITEMS_PER_S:,.0f} items/s "
        "for 10 k items into 100 k drawers)",
        ["room size", "items", "job s", "items/s", "single writes/s", "ratio", "fill items/s",
         "target"],
        rows,
    )  # fmt: skip
    counts: list[list[Cell]] = [
        [r.size, r.kinds[Kind.NEW.value], r.kinds[Kind.NEAR.value], r.kinds[Kind.EXACT.value],
         r.result.get("stored"), r.result.get("duplicates"), len(r.result.get("failed", []))]
        for r in results
    ]  # fmt: skip
    print_table(
        f"Checkpoint verdicts on {backend} (every planted exact copy is a duplicate)",
        ["room size", "new", "near", "exact", "stored", "duplicates", "failed"],
        counts,
    )
