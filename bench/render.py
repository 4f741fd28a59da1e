"""`python -m bench report`: docs/performance.md rendered from the latest JSON of each workload.

The page is the current state, not a diary: one row per design §10 target with the latest
number, the command that reproduces the run (rebuilt from the JSON's `params`) and the machine
and date it ran on; verdicts are recomputed with `bench.targets.judge`. To update a row, run its
command (it overwrites `bench/results/<workload>.json`) and render again.
"""

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import targets

WORKLOADS = (
    *("mentions", "skew", "instances", "drawers", "bulk", "cores"),
    *("duplicates", "quality", "load"),
)
"""The order of the page: the workloads of design §10, as `python -m bench` lists them."""

NOT_OPTIONS = frozenset({"neo4j_heap", "neo4j_memory_indexes_only", "neo4j_driver"})
"""Params recorded for the reader that are no option of the command (Neo4j's heap is set by
`NEO4J_SERVER_HEAP`, the candidate indexes left to memory by `MEMORY_INDEXES_ONLY`, the driver
is the one installed)."""

MEMORY_INDEXES_ONLY = "CASTLEGRAPH_NEO4J_MEMORY_INDEXES_ONLY"
"""The service's setting a Neo4j run may be given (`graph.neo4j_memory_indexes_only`)."""

LOAD_CHECKS = (
    ("server_errors", "5xx answers"),
    ("duplicate_entities", "duplicate entities"),
    ("lost_mentions", "lost mentions"),
    ("checkpoint_lost", "lost checkpoint items"),
    ("health_not_200", "health polls not 200"),
)
"""`bench load` has checks instead of budgets: each must count zero (its exit status says so)."""


@dataclass(frozen=True, slots=True)
class Run:
    """One workload's JSON file as the benchmarks write it: `{benchmark, machine, params,
    results}`, plus `source` when the file was transcribed rather than written by a run."""

    workload: str
    machine: Mapping[str, Any]
    params: Mapping[str, Any]
    results: Mapping[str, Any]
    source: str | None = None
    core: Mapping[str, Any] | None = None
    """The core the service ran its rules on (`bench.report.core_facts`); None in a file from
    before the choice existed (the pure-Python core)."""
    file: str | None = None
    """Its file's name, when not the workload's own `<workload>.json` (a second run of one
    workload, on Neo4j or on the pure-Python core, written with `--out`)."""


def load_runs(folder: Path) -> list[Run]:
    """The latest result of each workload in `folder`, page order: `<workload>.json`, and any
    other file of a workload beside it (`mentions-neo4j.json`)."""
    runs = []
    for path in sorted(folder.glob("*.json")):
        payload = json.loads(path.read_text(encoding="utf-8"))
        runs.append(
            Run(
                workload=payload["benchmark"],
                machine=payload.get("machine") or {},
                params=payload.get("params") or {},
                results=payload.get("results") or {},
                source=payload.get("source"),
                core=payload.get("core"),
                file=None if path.name == f"{payload['benchmark']}.json" else path.name,
            )
        )
    order = {name: i for i, name in enumerate(WORKLOADS)}
    return sorted(
        runs,
        key=lambda run: (order.get(run.workload, len(order)), run.workload, run.file or ""),
    )


def command(run: Run) -> str:
    """The command line that produces `run`, every option it was given spelled out, with the
    core it was told to run (`CASTLEGRAPH_CORE`), Neo4j's candidate indexes left to memory
    (`MEMORY_INDEXES_ONLY`), and the file it wrote when not the default."""
    setting = (run.core or {}).get("setting")
    parts = [f"CASTLEGRAPH_CORE={setting}"] if setting not in (None, "auto") else []
    if run.params.get("neo4j_memory_indexes_only"):
        parts.append(f"{MEMORY_INDEXES_ONLY}=true")
    parts += ["python -m bench", run.workload]
    for key, value in run.params.items():
        if key in NOT_OPTIONS:
            continue
        option = "--" + key.replace("_", "-")
        if isinstance(value, bool):
            parts.append(option if value else "--no-" + key.replace("_", "-"))
        elif isinstance(value, list):
            parts.append(f"{option} {','.join(str(item) for item in value)}")
        else:
            parts.append(f"{option} {value}")
    if run.file is not None:
        parts.append(f"--out bench/results/{run.file}")
    return " ".join(parts)


def _number(value: float | None) -> str:
    """Whole numbers with thousands separated, others with four significant digits."""
    if value is None:
        return "not measured"
    if value == int(value) or abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def _size(size: int | None) -> str:
    if size is None:
        return ""
    if size >= 1_000_000 and size % 1_000_000 == 0:
        return f"{size // 1_000_000} M"
    if size >= 1_000 and size % 1_000 == 0:
        return f"{size // 1_000} k"
    return f"{size:,}"


def _per_backend(run: Run) -> Iterable[tuple[str, Mapping[str, Any]]]:
    """(backend, results): a `--backend both` file holds one result per backend."""
    backends = run.results.get("backends")
    if isinstance(backends, Mapping):
        yield from backends.items()
    else:
        yield str(run.results.get("backend", run.params.get("backend", "embedded"))), run.results


def label(run: Run, backends: Sequence[str]) -> str:
    """The workload, with the backends other than the embedded one, Neo4j's candidate indexes
    left to memory, and the pure-Python core when a run chose it (`mentions (neo4j)`,
    `drawers (neo4j, memory indexes only)`, `mentions (pure-Python core)`): two runs of one
    workload side by side stay apart."""
    qualifiers = [backend for backend in backends if backend != "embedded"]
    if run.params.get("neo4j_memory_indexes_only"):
        qualifiers.append("memory indexes only")
    if run.core and run.core.get("name") == "python":
        qualifiers.append("pure-Python core")
    return f"{run.workload} ({', '.join(qualifiers)})" if qualifiers else run.workload


def rows(run: Run) -> list[list[str]]:
    """The page's rows of one run: workload, command, measured, target, verdict."""
    found: list[list[str]] = []
    for backend, results in _per_backend(run):
        name = label(run, [backend])
        if run.workload == "load":
            found.append([name, "", *_load_row(results)])
            continue
        for verdict in targets.judge(run.workload, results, backend):
            at = verdict.measured.size
            measured = _number(verdict.measured.value) + (f" at {_size(at)}" if at else "")
            wanted = f" at {_size(verdict.target.size)}" if verdict.target.size else ""
            outcome = verdict.outcome + (" (smaller size)" if verdict.short_of_size else "")
            found.append(
                [
                    name,
                    "",
                    f"{verdict.target.label}: {measured}",
                    verdict.target.text() + wanted,
                    outcome,
                ]
            )
    if found:
        found[0][1] = f"`{command(run)}`"
    return found


def _load_row(results: Mapping[str, Any]) -> list[str]:
    counts = {label: int(results.get(key) or 0) for key, label in LOAD_CHECKS}
    problems = len(results.get("hazard_problems") or [])
    counts["hazards that did not end as they must"] = problems
    polls = results.get("health_polls")
    shown = ", ".join(f"{value} {label}" for label, value in counts.items())
    if polls is not None:
        shown += f" ({polls:,} health polls)"
    outcome = "met" if not any(counts.values()) else "missed"
    return [shown, "every count 0", outcome]


def machine_row(run: Run) -> list[str]:
    """Which machine ran it and when: the numbers mean nothing without it."""
    facts = run.machine
    cores = facts.get("cores")
    cpu = facts.get("cpu_model") or "unknown CPU"
    where = f"{cores} × {cpu}" if cores else cpu
    python = facts.get("python")
    if python:
        where += f", Python {python}"
    date = str(facts.get("date") or "unknown")[:10]
    backends = [backend for backend, _ in _per_backend(run)]
    return [label(run, backends), where, core_text(run), date, run.source or "written by the run"]


def core_text(run: Run) -> str:
    """`native 0.1.0` or `python 0.1.0`; a run from before the choice ran the Python core;
    `bench cores` ran each. A Neo4j run names the driver too, where it recorded it."""
    each = run.results.get("cores")
    if isinstance(each, Mapping):
        return " and ".join(f"{name} {r['core']['version']}" for name, r in each.items())
    if not run.core:
        return "python (before the compiled core)"
    text = f"{run.core.get('name', '?')} {run.core.get('version', '')}".strip()
    driver = run.params.get("neo4j_driver")
    return f"{text}; Neo4j {driver}" if driver else text


def _table(columns: Sequence[str], body: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in body]
    return lines


HEADER = """# Performance

The current numbers of every benchmark against the design's targets (design §10), one row per
target. This page is rendered from the JSON files in `bench/results/` by
`python -m bench report`; do not edit it by hand. To refresh a row, run its command from the
repository root (`.venv/bin/pip install -e '.[bench]'` first), which overwrites that
workload's JSON, then render the page again. Earlier numbers are in git history.

The benchmarks run on a small shared machine (two cores), so read a number together with the
machine, core and date of its run (the second table: `native` is the compiled core, `python`
the pure-Python one, `CASTLEGRAPH_CORE` chooses); ratios within one run are steadier than
absolute times. `--backend neo4j` or `--backend both` runs a workload on Neo4j 5 (or on both,
side by side), warm: untimed batches first, until Neo4j's JIT compiler is quiet (`bench/jit.py`);
a file from such a run renders a row per backend. A second run of a workload,
on Neo4j or on the pure-Python core (`CASTLEGRAPH_CORE=python`), written with `--out
bench/results/<workload>-<which>.json`, renders its own rows beside the first. `bench
mentions` runs the skew case too, so its rows carry the skew targets. Where a target is
missed, four profilers say where the time goes, step by step and in CPU time: `python -m
bench.profile_mentions --size N --data DIR` (a mention batch in process; `--funnel` also counts
what it narrows down: probe keys, entities found and set aside unread, review candidates, links
kept), `python -m bench.profile_drawers --size N --data DIR`
(a drawer write in process), `python -m bench.profile_checkpoints --size N --items N --data DIR`
(a checkpoint job in process) and `python -m bench.profile_neo4j` (a mention batch and a drawer
write on Neo4j, exchange by exchange).
"""


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


QUALITY_RESOLVERS = ("castlegraph", "castlegraph, person typos onto any spelling")
"""The default and the other person rule (`dedup.person_typos_onto_known_names = false`)."""


def quality_sections(run: Run) -> list[str]:
    """`bench quality`'s people per locale and its rules, castlegraph's default beside the
    other person rule: the numbers behind the quality rows (design §10 asks for both)."""
    resolvers = run.results.get("resolvers") or {}
    shown = [name for name in QUALITY_RESOLVERS if name in resolvers]
    if not shown:
        return []
    default = resolvers[shown[0]]
    locales = default.get("per_locale") or {}
    lines = ["", "## Resolution quality per locale and per rule", ""]
    lines += [
        "People of each locale the names were drawn from (`bench quality`): precision of "
        "their converged mentions, recall of their true variants (converged or review-linked) "
        "and recall counting review links over what the rules reach; castlegraph's default, "
        "then with `dedup.person_typos_onto_known_names = false`.",
        "",
    ]
    body = [
        [
            locale,
            str(row.get("targets", 0)),
            *[
                " / ".join(
                    _ratio(((resolvers[name].get("per_locale") or {}).get(locale) or {}).get(k))
                    for k in ("precision", "recall", "recall_reachable")
                )
                for name in shown
            ],
        ]
        for locale, row in locales.items()
    ]
    lines += _table(
        [
            "locale",
            "true variants",
            *[f"{name}: precision / recall / with links" for name in shown],
        ],
        body,
    )
    rules = sorted({rule for name in shown for rule in resolvers[name].get("per_rule") or {}})
    lines += ["", "Converged mentions per rule: precision (converged).", ""]
    lines += _table(
        ["rule", *shown],
        [
            [
                rule,
                *[
                    f"{_ratio(counts.get('precision'))} ({counts.get('converged', 0):,})"
                    if (counts := (resolvers[name].get("per_rule") or {}).get(rule))
                    else "-"
                    for name in shown
                ],
            ]
            for rule in rules
        ],
    )
    return lines


def render(runs: Sequence[Run]) -> str:
    """The whole page."""
    body = [row for run in runs for row in rows(run)]
    lines = [HEADER]
    lines += _table(["workload", "command", "measured", "target", "verdict"], body)
    lines += [line for run in runs if run.workload == "quality" for line in quality_sections(run)]
    lines += ["", "## The runs", ""]
    lines += _table(
        ["workload", "machine", "core", "date", "source"], [machine_row(run) for run in runs]
    )
    if any(run.source for run in runs):
        lines += [
            "",
            'A *source* other than "written by the run" marks a file transcribed from the '
            "run's printed tables, with only the numbers those tables gave; running the command "
            "replaces it with the full JSON.",
        ]
    return "\n".join(lines) + "\n"


def write(folder: Path, out: Path) -> int:
    """Render `folder`'s results into `out`; the number of workloads rendered."""
    runs = load_runs(folder)
    if not runs:
        return 0
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render(runs), encoding="utf-8")
    return len(runs)
