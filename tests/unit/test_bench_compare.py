"""`--backend both` end to end without a service: `bench.__main__._run` runs a workload once per
backend, judges each run and writes one JSON with both runs, the side-by-side numbers and the
verdicts (the workload here is a stand-in returning skew-shaped results)."""

import json
from pathlib import Path
from typing import Any

from bench.__main__ import Backends, _run
from bench.service import Backend


def _skew(hot_drawer: float) -> dict[str, Any]:
    return {
        "cases": {
            "spread": {"median_ms": 100.0, "ratio_to_spread": 1.0},
            "hot drawer": {"median_ms": 100.0 * hot_drawer, "ratio_to_spread": hot_drawer},
            "hot entity": {"median_ms": 10.0, "ratio_to_spread": 0.1},
            "shared key": {"median_ms": 120.0, "ratio_to_spread": 1.2},
        }
    }


def test_both_backends_run_in_turn_and_land_in_one_json(tmp_path: Path) -> None:
    asked: list[Backend] = []

    def work(backend: Backend) -> dict[str, Any]:
        asked.append(backend)
        return _skew(1.5 if backend is Backend.EMBEDDED else 2.5)

    out = tmp_path / "skew.json"
    _run("skew", {"backend": "both"}, out, work, Backends.BOTH)

    written = json.loads(out.read_text())
    results = written["results"]
    assert asked == [Backend.EMBEDDED, Backend.NEO4J]
    assert written["params"] == {"backend": "both"}
    assert results["verdicts"] == {
        "embedded": {"skew_hot_drawer": "met", "skew_hot_entity": "met", "skew_shared_key": "met"},
        "neo4j": {"skew_hot_drawer": "missed", "skew_hot_entity": "met", "skew_shared_key": "met"},
    }
    hot = next(c for c in results["comparison"] if c["number"] == "skew hot drawer median_ms")
    assert (hot["embedded"], hot["neo4j"], hot["neo4j_over_embedded"]) == (150.0, 250.0, 250 / 150)
    assert results["backends"]["neo4j"]["verdicts"][0]["value"] == 2.5


def test_one_backend_is_judged_alone(tmp_path: Path) -> None:
    out = tmp_path / "skew.json"
    _run("skew", {}, out, lambda backend: _skew(1.9), Backends.NEO4J)

    results = json.loads(out.read_text())["results"]
    assert "backends" not in results
    assert [(v["metric"], v["verdict"]) for v in results["verdicts"]] == [
        ("skew_hot_drawer", "met"),
        ("skew_hot_entity", "met"),
        ("skew_shared_key", "met"),
    ]
