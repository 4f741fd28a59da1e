"""What the mentions benchmark measured per size, its tables and its JSON (design §10)."""

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.jit import WarmUp
from bench.mention_mix import SHARES
from bench.peers import PeerRates
from bench.preload import Loaded
from bench.report import Cell, print_table
from bench.service import Backend
from bench.targets import bound

BATCH = 1_000
TARGET_RATE = int(bound("mentions", "mentions_per_s"))
TARGET_RATIO = bound("mentions", "cost_ratio")
TARGET_SERVICE_MB = int(bound("mentions", "service_rss_mb"))
"""design §10, at 1 M entities; the ratio compares the largest size with the smallest."""
RULES = ("exact", "normalized", "alias", "typo", "new")


@dataclass
class SizeResult:
    size: int
    generate_seconds: float
    loaded: Loaded
    start_seconds: float
    database_start_seconds: float | None = None
    """The Neo4j server's start (the embedded database starts within the service's start)."""
    batch_seconds: list[float] = field(default_factory=list)
    service_cpu_ms: list[float] = field(default_factory=list)
    database_cpu_ms: list[float] = field(default_factory=list)
    rules: Counter[str] = field(default_factory=Counter)
    by_category: dict[str, Counter[str]] = field(default_factory=dict)
    outcomes: Counter[str] = field(default_factory=Counter)
    memory: dict[str, float | None] = field(default_factory=dict)
    warm_up: WarmUp | None = None
    """The untimed batches before the timed ones (`bench.mentions.warm_up`)."""

    def stat_ms(self, name: str) -> float:
        """`median`, `mean` or a percentile (`p90`) of the timed batches, in ms."""
        if name == "median":
            return statistics.median(self.batch_seconds) * 1000
        if name == "mean":
            return statistics.fmean(self.batch_seconds) * 1000
        percentile = int(name.removeprefix("p"))
        cuts = statistics.quantiles(self.batch_seconds, n=100, method="inclusive")
        return cuts[percentile - 1] * 1000

    @property
    def rate(self) -> float:
        """Mentions per second of the median batch."""
        return BATCH / (self.stat_ms("median") / 1000)

    @property
    def per_mention_us(self) -> float:
        return self.stat_ms("median") * 1000 / BATCH

    @property
    def load_rate(self) -> float:
        return self.loaded.entities / self.loaded.load_seconds

    def as_json(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "batches": len(self.batch_seconds),
            "mentions_per_s": round(self.rate, 1),
            "per_mention_us": round(self.per_mention_us, 2),
            **{f"{name}_ms": round(self.stat_ms(name), 2) for name in ("median", "p90", "mean")},
            "batch_ms": [round(s * 1000, 2) for s in self.batch_seconds],
            "service_cpu_ms_median": round(statistics.median(self.service_cpu_ms), 1),
            "database_cpu_ms_median": round(statistics.median(self.database_cpu_ms), 1),
            "service_cpu_ms": [round(ms, 1) for ms in self.service_cpu_ms],
            "database_cpu_ms": [round(ms, 1) for ms in self.database_cpu_ms],
            "rules": dict(self.rules),
            "by_category": {c: dict(r) for c, r in sorted(self.by_category.items())},
            "outcomes": dict(self.outcomes),
            "generate_seconds": round(self.generate_seconds, 2),
            "load_seconds": round(self.loaded.load_seconds, 2),
            "load_rate_per_s": round(self.load_rate, 1),
            "aof_rewrite_seconds": _rounded(self.loaded.compact_seconds),
            "database_start_seconds": _rounded(self.database_start_seconds),
            "service_start_seconds": round(self.start_seconds, 2),
            **self._warm_up_json(),
            **self.memory,
        }

    def _warm_up_json(self) -> dict[str, Any]:
        if self.warm_up is None:
            return {}
        return {
            "warm_up_batches": self.warm_up.steps,
            "warm_up_compiler_cpu_ms": self.warm_up.compiler_cpu_ms,
        }


def _rounded(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 2)


def peak_mb(pid: int) -> float | None:
    """A process's peak resident memory (VmHWM): a batch may peak between two readings."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def summary(results: Sequence[SizeResult], backend: Backend) -> dict[str, Any]:
    small, large = results[0], results[-1]
    return {
        "backend": str(backend),
        "sizes": [r.as_json() for r in results],
        "ratio": {
            "from": small.size,
            "to": large.size,
            "per_mention_cost": large.per_mention_us / small.per_mention_us,
            "service_cpu": statistics.median(large.service_cpu_ms)
            / max(statistics.median(small.service_cpu_ms), 1e-9),
            "database_cpu": statistics.median(large.database_cpu_ms)
            / max(statistics.median(small.database_cpu_ms), 1e-9),
        },
        "mix": {str(c): share for c, share in SHARES.items()},
        "targets": {
            "mentions_per_s": TARGET_RATE,
            "ratio": TARGET_RATIO,
            "service_rss_mb": TARGET_SERVICE_MB,
        },
    }


def print_results(results: Sequence[SizeResult], backend: Backend) -> None:
    rows: list[list[Cell]] = [
        [r.size, len(r.batch_seconds), r.stat_ms("median"), r.stat_ms("p90"), r.rate,
         statistics.median(r.service_cpu_ms),
         statistics.median(r.database_cpu_ms), r.memory.get("service_rss_mb"),
         r.memory.get("service_peak_mb"), r.memory.get("entity_index_bytes_per_entity"),
         r.memory.get("database_rss_mb")]
        for r in results
    ]  # fmt: skip
    print_table(
        f"POST /api/mentions on {backend}, batches of {BATCH:,} (target ≥ {TARGET_RATE:,}/s and "
        f"service ≤ {TARGET_SERVICE_MB} MB at 1 M entities; CPU per batch; svc = service, "
        "db = database)",
        [
            "entities",
            "batches",
            "median ms",
            "p90 ms",
            "mentions/s",
            "svc CPU ms",
            "db CPU ms",
            "svc MB",
            "svc peak MB",
            "index B/entity",
            "db MB",
        ],
        rows,
    )
    small, large = results[0], results[-1]
    growth: list[list[Cell]] = [
        [f"wall {name}", small.stat_ms(name), large.stat_ms(name),
         large.stat_ms(name) / small.stat_ms(name)]
        for name in ("median", "p90", "mean")
    ]  # fmt: skip  # ms per batch of 1,000 = µs per mention
    for label, small_ms, large_ms in (
        ("service CPU median", small.service_cpu_ms, large.service_cpu_ms),
        ("database CPU median", small.database_cpu_ms, large.database_cpu_ms),
    ):
        ratio = statistics.median(large_ms) / max(statistics.median(small_ms), 1e-9)
        growth.append([label, statistics.median(small_ms), statistics.median(large_ms), ratio])
    print_table(
        f"Per-mention cost {large.size:,} / {small.size:,} entities on {backend} "
        f"(target ≤ {TARGET_RATIO:g})",
        ["batch statistic", f"{small.size:,}: µs/mention", f"{large.size:,}: µs/mention", "ratio"],
        growth,
    )
    rules: list[list[Cell]] = [
        [r.size, *(r.rules[rule] for rule in RULES), r.outcomes["created"], r.outcomes["linked"],
         r.outcomes["with_review_links"]]
        for r in results
    ]  # fmt: skip
    print_table(
        f"Rules fired (timed batches) and outcomes on {backend}",
        ["entities", *RULES, "created", "linked", "with review links"],
        rules,
    )
    print_table(
        f"Rules by kind of mention at {large.size:,} entities on {backend} (sanity check)",
        ["mention", "count", *RULES],
        [
            [category, counts.total(), *(counts[rule] for rule in RULES)]
            for category, counts in sorted(large.by_category.items())
        ],
    )
    loads: list[list[Cell]] = [
        [r.size, r.generate_seconds, r.database_start_seconds, r.loaded.load_seconds,
         r.load_rate, r.loaded.compact_seconds, r.start_seconds]
        for r in results
    ]  # fmt: skip
    print_table(
        f"Load on {backend} (graph.entities.bulk.load_entities in-process,"
        " before the service starts)",
        ["entities", "generate s", "db start s", "load s", "entities/s", "AOF rewrite s",
         "service start s"],
        loads,
    )  # fmt: skip


def print_peers(results: Sequence[SizeResult], rates: Sequence[PeerRates]) -> None:
    """castlegraph's mentions/s beside the peers' on the same names (`bench.peers`)."""
    rows: list[list[Cell]] = [
        [r.size, r.rate, p.length_band_per_s, p.wratio_per_s,
         f"{r.rate / p.length_band_per_s:.3g}", f"{r.rate / p.wratio_per_s:.3g}"]
        for r, p in zip(results, rates, strict=True)
    ]  # fmt: skip
    print_table(
        f"castlegraph over HTTP beside the peers in memory ({rates[0].mentions} mentions each, "
        "same mix; × = castlegraph / peer, above 1: castlegraph faster)",
        ["entities", "castlegraph /s", "length band /s", "WRatio /s", "× band", "× WRatio"],
        rows,
    )
