"""The §10 verdicts of `bench.targets` and the side-by-side table of `bench.compare`, on made-up
results shaped like the workloads' JSON (no database, no service)."""

from typing import Any

import pytest

from bench import compare, targets


def _mentions(rate: float, ratio: float, peak_mb: float, largest: int) -> dict[str, Any]:
    return {
        "sizes": [
            {"size": 10_000, "mentions_per_s": 3_000.0, "service_peak_mb": 250.0},
            {"size": largest, "mentions_per_s": rate, "service_peak_mb": peak_mb},
        ],
        "ratio": {"from": 10_000, "to": largest, "per_mention_cost": ratio},
    }


def _skew(hot_drawer: float, hot_entity: float, shared_key: float = 1.6) -> dict[str, Any]:
    return {
        "cases": {
            "spread": {"median_ms": 400.0, "ratio_to_spread": 1.0},
            "hot drawer": {"median_ms": 400.0 * hot_drawer, "ratio_to_spread": hot_drawer},
            "hot entity": {"median_ms": 400.0 * hot_entity, "ratio_to_spread": hot_entity},
            "shared key": {"median_ms": 400.0 * shared_key, "ratio_to_spread": shared_key},
        }
    }


def _outcomes(verdicts: list[targets.Verdict]) -> dict[str, str]:
    return {v.target.metric: v.outcome for v in verdicts}


def test_mentions_at_one_million_are_judged_on_the_largest_size_and_the_skew_case() -> None:
    results = _mentions(rate=12_000.0, ratio=1.6, peak_mb=480.0, largest=1_000_000)
    results["skew"] = _skew(hot_drawer=1.03, hot_entity=2.5)

    verdicts = targets.judge("mentions", results)

    assert _outcomes(verdicts) == {
        "mentions_per_s": "met",
        "cost_ratio": "missed",
        "service_rss_mb": "missed",  # revision 3: at most 300 MB
        "skew_hot_drawer": "met",
        "skew_hot_entity": "missed",
        "skew_shared_key": "missed",  # 1.6 against at most 1.5
    }
    rate = next(v for v in verdicts if v.target.metric == "mentions_per_s")
    assert (rate.measured.value, rate.measured.size, rate.short_of_size) == (
        12_000.0,
        1_000_000,
        False,
    )


@pytest.mark.parametrize(("peak_mb", "expected"), [(300.0, "met"), (300.5, "missed")])
def test_the_service_memory_bound_is_300_mb_of_peak_rss_at_one_million(
    peak_mb: float, expected: str
) -> None:
    verdicts = targets.judge("mentions", _mentions(12_000.0, 1.2, peak_mb, largest=1_000_000))

    memory = next(v for v in verdicts if v.target.metric == "service_rss_mb")
    assert (memory.outcome, memory.measured.value, memory.target.size) == (
        expected,
        peak_mb,
        1_000_000,
    )


def test_a_run_short_of_the_budgeted_size_is_judged_but_marked() -> None:
    verdicts = targets.judge("mentions", _mentions(2_000.0, 1.2, 300.0, largest=100_000))

    by_metric = {v.target.metric: v for v in verdicts}
    assert by_metric["mentions_per_s"].outcome == "missed"
    assert by_metric["mentions_per_s"].short_of_size
    assert by_metric["cost_ratio"].outcome == "met"
    assert by_metric["cost_ratio"].measured.size == 100_000
    assert by_metric["skew_hot_drawer"].outcome == "not measured"
    assert by_metric["skew_hot_drawer"].as_json()["verdict"] == "not measured"


@pytest.mark.parametrize(
    ("p50", "p99", "ratio", "linked", "expected"),
    [
        (2.9, 5.9, 1.4, 40, ("met", "met", "met", "met")),
        (3.0, 6.0, 1.5, 40, ("met", "met", "met", "met")),
        (3.1, 6.1, 1.51, 39, ("missed", "missed", "missed", "missed")),
    ],
)
def test_drawer_bounds_are_inclusive_and_recall_is_the_worst_kind_at_any_size(
    p50: float, p99: float, ratio: float, linked: int, expected: tuple[str, ...]
) -> None:
    results = {
        "sizes": [
            {"size": 1_000, "p50_ms": 3.0, "p99_ms": 5.0, "planted_recall": {"typo": {
                "planted": 40, "linked": linked}}},
            {"size": 100_000, "p50_ms": p50, "p99_ms": p99, "planted_recall": {"typo": {
                "planted": 40, "linked": 40}, "reorder": {"planted": 40, "linked": 40}}},
        ],
        "ratio": {"from": 1_000, "to": 100_000, "p50": ratio, "p99": 2.0},
    }  # fmt: skip

    verdicts = targets.judge("drawers", results)

    assert tuple(v.outcome for v in verdicts) == expected
    recall = verdicts[-1]
    assert recall.measured.value == linked / 40
    assert not recall.short_of_size


def test_neo4j_runs_are_judged_by_neo4js_own_budgets() -> None:
    mentions = _mentions(rate=3_100.0, ratio=1.9, peak_mb=900.0, largest=100_000)
    drawers = {"sizes": [{"size": 10_000, "p50_ms": 6.5, "p99_ms": 30.0, "planted_recall": {
        "typo": {"planted": 40, "linked": 40}}}]}  # fmt: skip

    on_neo4j = targets.judge("mentions", mentions, "neo4j")
    embedded = targets.judge("mentions", mentions)

    assert _outcomes(on_neo4j)["mentions_per_s"] == "met"  # ≥ 3,000 at 100 k
    assert not next(v for v in on_neo4j if v.target.metric == "mentions_per_s").short_of_size
    assert "service_rss_mb" not in _outcomes(on_neo4j)  # the native core's budget, embedded
    assert _outcomes(embedded)["mentions_per_s"] == "missed"  # ≥ 10,000 at 1 M
    assert _outcomes(targets.judge("drawers", drawers, "neo4j")) == {
        "p50_ms": "missed",  # ≤ 6 ms at 10 k
        "planted_recall": "met",
    }
    assert _outcomes(targets.judge("bulk", {"sizes": []}, "neo4j")) == {
        "items_per_s": "not measured"
    }


def test_quality_duplicates_and_bulk_read_their_own_json() -> None:
    quality = {
        "resolvers": {
            "castlegraph": {
                "precision": 0.9969,
                "recall_converged_only": 0.93,
                "recall": 0.951,
                "per_reach": {"one_edit": {"recall_reachable": 0.999}, "beyond": {}},
                "per_form_reach": {
                    "accents": {"recall_reachable": 0.985},  # the worst row the rules reach
                    "initials": {"recall_reachable": 0.5},  # reported apart
                },
                "per_class": {"short_keys": {"recall_reachable": 0.997}},
            }
        }
    }
    duplicates = {
        "growth": 2.1,
        "sizes": [
            {"drawers": 10_000, "find_seconds": 0.06, "hygiene_seconds": 0.08},
            {"drawers": 100_000, "find_seconds": 12.0, "hygiene_seconds": 0.1},
        ],
    }
    bulk = {"sizes": [{"room_size": 10_000, "items_per_s": 2_100.0}]}

    assert _outcomes(targets.judge("quality", quality)) == {
        "precision": "met",
        "recall": "met",
        "recall_with_links": "missed",
    }
    (*_, worst) = targets.judge("quality", quality)
    assert worst.measured.value == 0.985
    quality["resolvers"]["castlegraph"]["per_locale"] = {
        "hi_IN": {"recall_reachable": 0.97},  # people of one locale count too
        "de_DE": {"recall_reachable": None},
    }
    (*_, worst) = targets.judge("quality", quality)
    assert worst.measured.value == 0.97
    assert _outcomes(targets.judge("duplicates", duplicates)) == {
        "find_seconds": "missed",
        "growth": "met",
        "hygiene_seconds": "met",
    }
    (items,) = targets.judge("bulk", bulk)
    assert (items.outcome, items.measured.size, items.short_of_size) == ("met", 10_000, True)
    assert targets.judge("load", {"operations": {}}) == []


def test_side_by_side_divides_neo4j_by_embedded_and_keeps_missing_numbers() -> None:
    embedded = _mentions(3_000.0, 1.2, 280.0, largest=100_000)
    neo4j = _mentions(1_000.0, 1.5, 300.0, largest=100_000)
    neo4j["sizes"][0]["mentions_per_s"] = 1_000.0
    neo4j["sizes"][1]["mentions_per_s"] = None
    embedded["skew"] = _skew(1.0, 0.2)
    neo4j["skew"] = _skew(1.5, 0.1)

    compared = {c["number"]: c for c in compare.side_by_side("mentions", embedded, neo4j)}

    assert compared["mentions_per_s @ 10,000"]["neo4j_over_embedded"] == pytest.approx(1 / 3)
    assert compared["mentions_per_s @ 100,000"] == {
        "number": "mentions_per_s @ 100,000",
        "embedded": 3_000.0,
        "neo4j": None,
        "neo4j_over_embedded": None,
    }
    assert compared["ratio per_mention_cost"]["neo4j_over_embedded"] == pytest.approx(1.25)
    assert compared["skew hot drawer × spread"]["neo4j"] == 1.5
    assert compared["skew hot entity median_ms"]["neo4j_over_embedded"] == pytest.approx(0.5)


def test_a_size_that_failed_is_not_measured_rather_than_met() -> None:
    duplicates = {
        "growth": None,
        "sizes": [
            {"drawers": 2_000, "find_seconds": 0.2, "hygiene_seconds": 0.01},
            {"drawers": 10_000, "error": "GraphUnavailable: Neo4j timed the transaction out"},
        ],
    }

    verdicts = targets.judge("duplicates", duplicates)

    assert [(v.outcome, v.measured.size) for v in verdicts] == [
        ("not measured", 10_000),
        ("not measured", None),
        ("not measured", 10_000),
    ]


def test_the_review_page_is_judged_on_its_first_screen_at_the_largest_size() -> None:
    results = {"sizes": [{"size": 100_000, "first_screen_p50_ms": 310.0}]}
    [verdict] = targets.judge("review-page", results)
    assert (verdict.outcome, verdict.measured.size, verdict.short_of_size) == (
        "missed",
        100_000,
        False,
    )
    quick = targets.judge("review-page", {"sizes": [{"size": 2_000, "first_screen_p50_ms": 25.0}]})
    assert [(v.outcome, v.short_of_size) for v in quick] == [("met", True)]
    rows = compare.rows("review-page", results)
    assert rows["first_screen_p50_ms @ 100,000"] == 310.0


def _core_run(name: str, p50: float, stored: int) -> dict[str, Any]:
    return {
        "core": {"name": name, "version": "0.1.0", "setting": name},
        "p50_ms": p50,
        "p99_ms": 2 * p50,
        "checkpoint_items_per_s": 2_500.0 if name == "native" else 900.0,
        "planted_recall": {"few_typos": {"planted": 40, "linked": 40}},
        "checkpoint_result": {"items": 100, "stored": stored, "duplicates": 100 - stored},
    }


def test_bench_cores_is_judged_on_the_compiled_core_and_on_what_both_agree() -> None:
    results = {
        "room_size": 100_000,
        "cores": {"python": _core_run("python", 4.0, 95), "native": _core_run("native", 2.5, 95)},
    }
    verdicts = {v.target.metric: v.outcome for v in targets.judge("cores", results)}
    assert verdicts == {
        "native_p50_ms": "met",
        "native_p99_ms": "met",
        "native_items_per_s": "met",
        "planted_recall": "met",
        "same_verdicts": "met",
    }
    results["cores"]["native"] = _core_run("native", 2.5, 94)  # one verdict differs
    verdicts = {v.target.metric: v.outcome for v in targets.judge("cores", results)}
    assert verdicts["same_verdicts"] == "missed"
