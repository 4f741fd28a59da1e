"""`--backend both`: one workload on the embedded database, then on Neo4j, in one run.

The two backends run back to back on the same seeded data, each with its own tables and
verdicts; a last table puts the numbers compared (`COMPARED`, read from each run's JSON) side by
side with the ratio Neo4j / embedded (above 1: Neo4j takes longer or gives more).
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bench import targets
from bench.report import Cell, print_table
from bench.service import Backend

PER_SIZE: dict[str, tuple[str, ...]] = {
    "mentions": (
        "mentions_per_s",
        "median_ms",
        "p90_ms",
        "service_cpu_ms_median",
        "database_cpu_ms_median",
        "service_peak_mb",
        "database_rss_mb",
    ),
    "drawers": ("p50_ms", "p99_ms", "mean_ms", "fill_rate_per_s", "database_rss_mb"),
    "bulk": ("items_per_s", "single_writes_per_s", "fill_items_per_s", "database_rss_mb"),
    "duplicates": (
        "load_seconds",
        "full_pass_seconds",
        "find_seconds",
        "hygiene_seconds",
        "embed_ms_per_vector",
        "http_seconds",
        "all_pairs_over_find",
        "all_pairs_over_full_pass",
        "recall",
    ),
    "review-page": ("first_screen_p50_ms", "first_screen_p95_ms", "seed_seconds"),
}
"""Keys of each size's entry in `results["sizes"]` put side by side."""


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def rows(workload: str, results: Mapping[str, Any]) -> dict[str, float | None]:
    """The numbers of one run that the comparison shows, by label, in a stable order."""
    found: dict[str, float | None] = {}
    for entry in results.get("sizes") or []:
        size = entry.get("size", entry.get("room_size", entry.get("drawers")))
        for key in PER_SIZE.get(workload, ()):
            found[f"{key} @ {size:,}"] = _number(entry.get(key))
    for peer in results.get("peers") or []:
        ours = peer["castlegraph_per_s"]
        for name in ("length_band", "wratio"):
            theirs = _number(peer.get(f"{name}_per_s"))
            found[f"castlegraph / {name} @ {peer['size']:,}"] = ours / theirs if theirs else None
    for key, value in (results.get("ratio") or {}).items():
        if key not in ("from", "to"):
            found[f"ratio {key}"] = _number(value)
    skew = results.get("skew") if workload == "mentions" else results
    for case, numbers in ((skew or {}).get("cases") or {}).items():
        found[f"skew {case} median_ms"] = _number(numbers.get("median_ms"))
        found[f"skew {case} × spread"] = _number(numbers.get("ratio_to_spread"))
    for operation, numbers in (results.get("operations") or {}).items():
        for key in ("per_second", "p50_ms", "p99_ms"):
            found[f"{operation} {key}"] = _number(numbers.get(key))
    return found


def side_by_side(
    workload: str, embedded: Mapping[str, Any], neo4j: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """One record per number: both values and Neo4j / embedded (None where either is missing)."""
    left, right = rows(workload, embedded), rows(workload, neo4j)
    compared = []
    for label in [*left, *(label for label in right if label not in left)]:
        a, b = left.get(label), right.get(label)
        ratio = b / a if a is not None and b is not None and a != 0 else None
        compared.append({"number": label, "embedded": a, "neo4j": b, "neo4j_over_embedded": ratio})
    return compared


def print_side_by_side(workload: str, compared: Sequence[Mapping[str, Any]]) -> None:
    table: list[list[Cell]] = [
        [c["number"], c["embedded"], c["neo4j"], c["neo4j_over_embedded"]] for c in compared
    ]
    print_table(
        f"{workload}: embedded FalkorDB and Neo4j 5 side by side, one run",
        ["number", "embedded", "neo4j", "neo4j / embedded"],
        table,
    )


def judged(workload: str, results: dict[str, Any], backend: Backend | None) -> dict[str, Any]:
    """`results` with its §10 verdicts, after printing them (`backend` None: embedded only)."""
    verdicts = targets.judge(workload, results, str(backend or "embedded"))
    targets.print_verdicts(workload, verdicts, None if backend is None else str(backend))
    results["verdicts"] = targets.verdicts_json(verdicts)
    return results


def run_both(workload: str, run: Callable[[Backend], dict[str, Any]]) -> dict[str, Any]:
    """`run` on each backend in turn, each judged, then the side-by-side table."""
    per_backend = {str(b): judged(workload, run(b), b) for b in (Backend.EMBEDDED, Backend.NEO4J)}
    compared = side_by_side(workload, per_backend["embedded"], per_backend["neo4j"])
    print_side_by_side(workload, compared)
    verdicts = {
        str(b): {v["metric"]: v["verdict"] for v in per_backend[str(b)]["verdicts"]}
        for b in (Backend.EMBEDDED, Backend.NEO4J)
    }
    return {"backends": per_backend, "comparison": compared, "verdicts": verdicts}
