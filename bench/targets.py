"""The budgets of design §10 as data, and the verdict of a run against them.

Each workload reports what it measured in its own JSON shape; `measure` reads from that JSON the
few numbers a budget bounds, so a verdict can be recomputed from any results file and the tests
can check the verdict logic on made-up results. A run that stopped short of a budget's size is
judged on its largest size, marked with that size (`Measured.size`).
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bench.report import Cell, print_table

Results = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Target:
    """One bound of design §10: `metric` ≤ (or ≥) `bound`, meant at `size` (1 M entities, a
    room of 100 k drawers). A run with `--sizes 10000,100000` gets a verdict on 100 k, marked
    as such, without claiming the 1 M budget."""

    metric: str
    label: str
    bound: float
    at_most: bool
    size: int | None = None
    """The size the budget is stated at (entities, drawers); None when it holds at every size."""

    def text(self) -> str:
        return f"{'≤' if self.at_most else '≥'} {self.bound:,g}"

    def met(self, value: float) -> bool:
        return value <= self.bound if self.at_most else value >= self.bound


@dataclass(frozen=True, slots=True)
class Measured:
    """A number read from a run and the size it was measured at (None: not measured)."""

    value: float | None
    size: int | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    target: Target
    measured: Measured

    @property
    def outcome(self) -> str:
        """`met`, `missed` or `not measured`: the number against the bound, whatever the size."""
        if self.measured.value is None:
            return "not measured"
        return "met" if self.target.met(self.measured.value) else "missed"

    @property
    def short_of_size(self) -> bool:
        """Measured below the size the budget is stated at: the verdict is only indicative."""
        wanted, got = self.target.size, self.measured.size
        return wanted is not None and got is not None and got < wanted

    def as_json(self) -> dict[str, Any]:
        return {
            "metric": self.target.metric,
            "label": self.target.label,
            "bound": self.target.bound,
            "at_most": self.target.at_most,
            "target_size": self.target.size,
            "value": self.measured.value,
            "measured_size": self.measured.size,
            "verdict": self.outcome,
            "short_of_size": self.short_of_size,
        }


SKEW = (
    Target("skew_hot_drawer", "hot drawer batch / spread batch", 2.0, at_most=True),
    Target("skew_hot_entity", "hot entity batch / spread batch", 2.0, at_most=True),
    Target("skew_shared_key", "shared-key batch (10 k kinds) / spread batch", 1.5, at_most=True),
)

TARGETS: dict[str, tuple[Target, ...]] = {
    "mentions": (
        Target("mentions_per_s", "mentions/s", 10_000, at_most=False, size=1_000_000),
        Target("cost_ratio", "per-mention cost, largest / smallest", 1.5, True, 1_000_000),
        Target("service_rss_mb", "service peak RSS MB", 300, at_most=True, size=1_000_000),
        *SKEW,
    ),
    "skew": SKEW,
    "drawers": (
        Target("p50_ms", "drawer write p50 ms", 3.0, at_most=True, size=100_000),
        Target("p99_ms", "drawer write p99 ms", 6.0, at_most=True, size=100_000),
        Target("cost_ratio", "p50 cost, largest / smallest room", 1.5, True, 100_000),
        Target("planted_recall", "recall of planted near copies (every size)", 1.0, False),
    ),
    "bulk": (Target("items_per_s", "checkpoint items/s", 2_000, at_most=False, size=100_000),),
    "cores": (
        Target("native_p50_ms", "drawer write p50 ms, compiled core", 3.0, True, 100_000),
        Target("native_p99_ms", "drawer write p99 ms, compiled core", 6.0, True, 100_000),
        Target("native_items_per_s", "checkpoint items/s, compiled core", 2_000, False, 100_000),
        Target("planted_recall", "recall of planted near copies (both cores)", 1.0, False),
        Target("same_verdicts", "checkpoint verdicts equal under both cores", 1.0, False),
    ),
    "duplicates": (
        Target("find_seconds", "find_duplicates s", 10.0, at_most=True, size=100_000),
        Target("growth", "find_duplicates cost, largest / smallest", 15.0, True, 100_000),
        Target("hygiene_seconds", "GET hygiene s", 1.0, at_most=True, size=100_000),
    ),
    "quality": (
        Target("precision", "precision of converged mentions", 0.995, at_most=False),
        Target("recall", "recall of true variants", 0.95, at_most=False),
        Target(
            "recall_with_links",
            "recall counting review links, worst rule, form, class or locale the rules reach",
            0.99,
            at_most=False,
        ),
    ),
    "review-page": (
        Target("first_screen_p50_ms", "review page first screen p50 ms", 300, True, 100_000),
    ),
    "instances": (
        Target("ratio", "two instances / one on one Neo4j, mentions/s", 1.6, at_most=False),
        Target("lock_wait_share", "kind-lock wait / batch, two instances", 0.05, at_most=True),
    ),
    "load": (),
}
"""design §10, workload by workload, on the embedded database (`load` has checks, not
budgets)."""

NEO4J_TARGETS: dict[str, tuple[Target, ...]] = {
    "mentions": (
        Target("mentions_per_s", "mentions/s", 3_000, at_most=False, size=100_000),
        *SKEW,
    ),
    "drawers": (
        Target("p50_ms", "drawer write p50 ms", 6.0, at_most=True, size=10_000),
        Target("planted_recall", "recall of planted near copies (every size)", 1.0, False),
    ),
}
"""design §10's budgets on Neo4j, where they differ: mentions at 100 k entities, drawer writes
in a room of 10 k. A workload not named here is judged by `TARGETS` on either backend."""


def targets_of(workload: str, backend: str = "embedded") -> tuple[Target, ...]:
    """The budgets of `workload` on `backend` (none for a workload without any)."""
    if backend == "neo4j" and workload in NEO4J_TARGETS:
        return NEO4J_TARGETS[workload]
    return TARGETS.get(workload, ())


def bound(workload: str, metric: str) -> float:
    """One budget's bound, for the titles the workloads print before their verdict table."""
    return next(t.bound for t in TARGETS[workload] if t.metric == metric)


def _largest(results: Results) -> Mapping[str, Any]:
    sizes: Sequence[Mapping[str, Any]] = results.get("sizes") or [{}]
    return sizes[-1]


def _size(entry: Mapping[str, Any]) -> int | None:
    for key in ("size", "room_size", "drawers"):
        if key in entry:
            return int(entry[key])
    return None


def _ratio(results: Results, key: str) -> Measured:
    ratio = results.get("ratio") or {}
    value = ratio.get(key)
    return Measured(None if value is None else float(value), ratio.get("to"))


def _at_largest(results: Results, key: str) -> Measured:
    entry = _largest(results)
    value = entry.get(key)
    return Measured(None if value is None else float(value), _size(entry))


def _skew(results: Results | None) -> dict[str, Measured]:
    cases = (results or {}).get("cases") or {}
    return {
        f"skew_{case.replace(' ', '_')}": Measured(
            cases[case]["ratio_to_spread"] if case in cases else None
        )
        for case in ("hot drawer", "hot entity", "shared key")
    }


def _mentions(results: Results) -> dict[str, Measured]:
    return {
        "mentions_per_s": _at_largest(results, "mentions_per_s"),
        "cost_ratio": _ratio(results, "per_mention_cost"),
        "service_rss_mb": _at_largest(results, "service_peak_mb"),
        **_skew(results.get("skew")),
    }


def _drawers(results: Results) -> dict[str, Measured]:
    recalls = [
        counts["linked"] / counts["planted"]
        for entry in results.get("sizes", [])
        for counts in entry.get("planted_recall", {}).values()
        if counts.get("planted")
    ]
    return {
        "p50_ms": _at_largest(results, "p50_ms"),
        "p99_ms": _at_largest(results, "p99_ms"),
        "cost_ratio": _ratio(results, "p50"),
        "planted_recall": Measured(min(recalls) if recalls else None),
    }


def _duplicates(results: Results) -> dict[str, Measured]:
    growth = results.get("growth")
    return {
        "find_seconds": _at_largest(results, "find_seconds"),
        "growth": Measured(growth, _size(_largest(results)) if growth is not None else None),
        "hygiene_seconds": _at_largest(results, "hygiene_seconds"),
    }


QUALITY_APART = frozenset({"beyond", "initials"})
"""Rows of `bench quality` no rule covers (initials are reported apart, design §10)."""


def _quality(results: Results) -> dict[str, Measured]:
    """Precision; recall of every true variant, converged or linked; and the worst recall
    counting review links over what the rules reach, per rule, variant form, class and locale
    of the people's names."""
    castle = (results.get("resolvers") or {}).get("castlegraph") or {}
    rows = [
        row.get("recall_reachable")
        for section in ("per_reach", "per_form_reach", "per_class", "per_locale")
        for name, row in (castle.get(section) or {}).items()
        if name not in QUALITY_APART
    ]
    worst = min((r for r in rows if r is not None), default=None)
    return {
        "precision": Measured(castle.get("precision")),
        "recall": Measured(castle.get("recall")),
        "recall_with_links": Measured(worst),
    }


def _cores(results: Results) -> dict[str, Measured]:
    """`bench cores`: the compiled core's numbers, and what both cores must agree on."""
    cores: Mapping[str, Mapping[str, Any]] = results.get("cores") or {}
    native = cores.get("native") or {}
    size = results.get("room_size")
    recalls = [
        counts["linked"] / counts["planted"]
        for run in cores.values()
        for counts in (run.get("planted_recall") or {}).values()
        if counts.get("planted")
    ]
    verdicts = [run.get("checkpoint_result") for run in cores.values()]
    return {
        "native_p50_ms": Measured(native.get("p50_ms"), size),
        "native_p99_ms": Measured(native.get("p99_ms"), size),
        "native_items_per_s": Measured(native.get("checkpoint_items_per_s"), size),
        "planted_recall": Measured(min(recalls) if recalls else None),
        "same_verdicts": Measured(
            float(len(verdicts) > 1 and all(v == verdicts[0] for v in verdicts))
            if verdicts
            else None
        ),
    }


MEASURES: dict[str, Callable[[Results], dict[str, Measured]]] = {
    "mentions": _mentions,
    "skew": _skew,
    "drawers": _drawers,
    "bulk": lambda results: {"items_per_s": _at_largest(results, "items_per_s")},
    "cores": _cores,
    "duplicates": _duplicates,
    "quality": _quality,
    "review-page": lambda results: {
        "first_screen_p50_ms": _at_largest(results, "first_screen_p50_ms")
    },
    "instances": lambda results: {
        "ratio": Measured(results.get("ratio")),
        "lock_wait_share": Measured((results.get("two_instances") or {}).get("lock_wait_share")),
    },
    "load": lambda results: {},
}


def measure(workload: str, results: Results) -> dict[str, Measured]:
    """The numbers `workload`'s budgets bound, read from its results."""
    return MEASURES[workload](results)


def judge(workload: str, results: Results, backend: str = "embedded") -> list[Verdict]:
    """Each budget of `workload` on `backend` against its results; none for a measurement that
    has no budget of its own (`core_entity`: one function's speed under either core)."""
    budgets = targets_of(workload, backend)
    if not budgets:
        return []
    measured = measure(workload, results)
    return [Verdict(target, measured.get(target.metric, Measured(None))) for target in budgets]


def print_verdicts(workload: str, verdicts: Sequence[Verdict], backend: str | None) -> None:
    """The closing table of a workload: each budget, the number, met or missed."""
    if not verdicts:
        return
    rows: list[list[Cell]] = [
        [
            v.target.label,
            v.target.text(),
            None if v.target.size is None else v.target.size,
            _shown(v.measured.value),
            v.measured.size,
            v.outcome + (" (smaller size)" if v.short_of_size else ""),
        ]
        for v in verdicts
    ]
    where = f" on {backend}" if backend else ""
    print_table(
        f"design §10 targets of {workload}{where}",
        ["target", "bound", "at size", "measured", "measured at", "verdict"],
        rows,
    )


def _shown(value: float | None) -> Cell:
    """Small numbers (precision, ratios) with four significant digits, the rest as usual."""
    if value is None or abs(value) >= 10:
        return value
    return f"{value:.4g}"


def verdicts_json(verdicts: Sequence[Verdict]) -> list[dict[str, Any]]:
    return [v.as_json() for v in verdicts]
