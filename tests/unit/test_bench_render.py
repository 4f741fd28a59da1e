"""docs/performance.md is rendered from the benchmarks' JSON (`python -m bench report`)."""

import json
from pathlib import Path
from typing import Any

from bench import render

MACHINE = {"cores": 2, "cpu_model": "AMD EPYC", "python": "3.11.9", "date": "2026-12-04T00:10:00"}


NATIVE = {"name": "native", "version": "0.1.0", "setting": "auto"}


def write_result(
    folder: Path,
    name: str,
    params: dict[str, Any],
    results: dict[str, Any],
    core: dict[str, str] | None = None,
) -> None:
    payload = {"benchmark": name, "machine": MACHINE, "params": params, "results": results}
    if core is not None:
        payload["core"] = core
    (folder / f"{name}.json").write_text(json.dumps(payload), encoding="utf-8")


def drawers_results(p50: float) -> dict[str, Any]:
    recall = {"few_typos": {"planted": 40, "linked": 40}}
    return {
        "backend": "embedded",
        "sizes": [
            {"size": 1000, "p50_ms": 2.5, "p99_ms": 5.0, "planted_recall": recall},
            {"size": 100000, "p50_ms": p50, "p99_ms": 5.5, "planted_recall": recall},
        ],
        "ratio": {"from": 1000, "to": 100000, "p50": p50 / 2.5},
    }


def test_a_drawers_result_renders_one_row_per_target_with_its_command(tmp_path: Path) -> None:
    params = {"sizes": [1000, 100000], "samples": 600, "seed": 7, "backend": "embedded"}
    write_result(tmp_path, "drawers", params, drawers_results(p50=5.0))

    rows = render.rows(render.load_runs(tmp_path)[0])

    assert rows == [
        [
            "drawers",
            "`python -m bench drawers --sizes 1000,100000 --samples 600 --seed 7 "
            "--backend embedded`",
            "drawer write p50 ms: 5 at 100 k",
            "≤ 3 at 100 k",
            "missed",
        ],
        ["drawers", "", "drawer write p99 ms: 5.5 at 100 k", "≤ 6 at 100 k", "met"],
        [
            "drawers",
            "",
            "p50 cost, largest / smallest room: 2 at 100 k",
            "≤ 1.5 at 100 k",
            "missed",
        ],
        ["drawers", "", "recall of planted near copies (every size): 1", "≥ 1", "met"],
    ]


def test_the_page_holds_the_table_the_runs_and_their_machines(tmp_path: Path) -> None:
    write_result(
        tmp_path,
        "load",
        {"seconds": 30, "seed": 7, "backend": "embedded"},
        {"server_errors": 0, "duplicate_entities": 1, "health_polls": 120, "hazard_problems": []},
    )
    write_result(
        tmp_path,
        "mentions",
        {"sizes": [10000], "batches": 3, "skew": False, "peers": False, "backend": "embedded"},
        {"sizes": [{"size": 10000, "mentions_per_s": 2850.0, "service_peak_mb": 310.0}]},
    )
    out = tmp_path / "docs" / "performance.md"

    assert render.write(tmp_path, out) == 2

    page = out.read_text(encoding="utf-8").splitlines()
    mentions_row = next(line for line in page if "mentions/s:" in line)
    assert mentions_row == (
        "| mentions | `python -m bench mentions --sizes 10000 --batches 3 --no-skew --no-peers "
        "--backend embedded` | mentions/s: 2,850 at 10 k | ≥ 10,000 at 1 M | "
        "missed (smaller size) |"
    )
    load_row = next(line for line in page if line.startswith("| load |"))
    assert "1 duplicate entities" in load_row
    assert load_row.endswith("| every count 0 | missed |")
    # mentions comes before load whatever the file names say: the page follows design §10.
    assert page.index(mentions_row) < page.index(load_row)
    assert (
        "| mentions | 2 × AMD EPYC, Python 3.11.9 | python (before the compiled core) | "
        "2026-12-04 | written by the run |"
    ) in page


def test_the_runs_say_which_core_ran_them(tmp_path: Path) -> None:
    params = {"sizes": [100000], "items": 10000, "backend": "embedded"}
    write_result(tmp_path, "bulk", params, {}, core=NATIVE)
    [run] = render.load_runs(tmp_path)
    assert render.machine_row(run)[2] == "native 0.1.0"


def test_a_run_on_both_backends_renders_a_row_per_backend(tmp_path: Path) -> None:
    both = {
        "backends": {
            "embedded": {"sizes": [{"room_size": 100000, "items_per_s": 2100.0}]},
            "neo4j": {"sizes": [{"room_size": 100000, "items_per_s": 300.0}]},
        }
    }
    write_result(tmp_path, "bulk", {"sizes": [100000], "items": 10000, "backend": "both"}, both)

    rows = render.rows(render.load_runs(tmp_path)[0])

    assert [(row[0], row[2], row[4]) for row in rows] == [
        ("bulk", "checkpoint items/s: 2,100 at 100 k", "met"),
        ("bulk (neo4j)", "checkpoint items/s: 300 at 100 k", "missed"),
    ]


def test_runs_of_one_workload_on_another_backend_or_core_stay_apart(tmp_path: Path) -> None:
    """`mentions.json` (embedded, compiled core) beside a Neo4j run and a pure-Python core run
    of the same workload: each row and each machine line says which it is."""
    sizes = {"sizes": [{"size": 100000, "mentions_per_s": 2000.0}]}
    for name, backend, core in (
        ("mentions", "embedded", "native"),
        ("mentions-neo4j", "neo4j", "native"),
        ("mentions-python", "embedded", "python"),
    ):
        payload = {
            "benchmark": "mentions",
            "machine": MACHINE,
            "core": {
                "name": core,
                "version": "0.1.0",
                "setting": "auto" if core == "native" else core,
            },
            "params": {"sizes": [100000], "backend": backend},
            "results": {**sizes, "backend": backend},
        }
        (tmp_path / f"{name}.json").write_text(json.dumps(payload), encoding="utf-8")

    runs = render.load_runs(tmp_path)

    assert [run.file for run in runs] == [None, "mentions-neo4j.json", "mentions-python.json"]
    assert sorted(render.rows(run)[0][0] for run in runs) == [
        "mentions",
        "mentions (neo4j)",
        "mentions (pure-Python core)",
    ]
    assert sorted(render.machine_row(run)[0] for run in runs) == [
        "mentions",
        "mentions (neo4j)",
        "mentions (pure-Python core)",
    ]
    assert sorted(render.command(run) for run in runs) == [
        "CASTLEGRAPH_CORE=python python -m bench mentions --sizes 100000 --backend embedded "
        "--out bench/results/mentions-python.json",
        "python -m bench mentions --sizes 100000 --backend embedded",
        "python -m bench mentions --sizes 100000 --backend neo4j "
        "--out bench/results/mentions-neo4j.json",
    ]


def test_a_neo4j_run_with_its_candidate_indexes_left_to_memory_says_so(tmp_path: Path) -> None:
    params = {"sizes": [10000], "backend": "neo4j", "neo4j_memory_indexes_only": True}
    results = {**drawers_results(p50=5.0), "backend": "neo4j"}
    write_result(tmp_path, "drawers", params, results)
    [run] = render.load_runs(tmp_path)

    assert render.command(run) == (
        "CASTLEGRAPH_NEO4J_MEMORY_INDEXES_ONLY=true python -m bench drawers --sizes 10000 "
        "--backend neo4j"
    )
    assert render.rows(run)[0][0] == "drawers (neo4j, memory indexes only)"


def test_a_neo4j_run_names_its_driver_beside_the_core_and_not_in_its_command(
    tmp_path: Path,
) -> None:
    driver = "driver 6.4.1 with its Rust extensions"
    params = {"sizes": [10000], "backend": "neo4j", "neo4j_heap": "2g", "neo4j_driver": driver}
    results = {**drawers_results(p50=5.0), "backend": "neo4j"}
    write_result(tmp_path, "drawers", params, results, core=NATIVE)
    [run] = render.load_runs(tmp_path)

    assert render.machine_row(run)[2] == f"native 0.1.0; Neo4j {driver}"
    assert render.command(run) == "python -m bench drawers --sizes 10000 --backend neo4j"


def test_nothing_is_written_without_results(tmp_path: Path) -> None:
    out = tmp_path / "performance.md"
    assert render.write(tmp_path, out) == 0
    assert not out.exists()


def test_quality_renders_its_people_per_locale_and_its_rules(tmp_path: Path) -> None:
    def castle(precision: float) -> dict[str, Any]:
        locale = {"targets": 200, "precision": precision, "recall": 0.95, "recall_reachable": 1.0}
        return {
            "precision": precision,
            "recall": 0.95,
            "per_locale": {"en_IE": locale},
            "per_rule": {"typo": {"converged": 3074, "precision": precision}},
        }

    results = {
        "resolvers": {
            "castlegraph": castle(0.9961),
            "castlegraph, person typos onto any spelling": castle(0.9861),
        }
    }
    write_result(tmp_path, "quality", {"scale": 1.0, "seed": 7}, results)
    page = render.render(render.load_runs(tmp_path))
    assert "| en_IE | 200 | 0.9961 / 0.9500 / 1.0000 | 0.9861 / 0.9500 / 1.0000 |" in page
    assert "| typo | 0.9961 (3,074) | 0.9861 (3,074) |" in page
