"""Run a benchmark, print its tables and write its JSON with the facts of the machine that ran it.

Every workload goes through `run_workload`, so each JSON file has the same frame. Absolute
times only mean something next to the machine that produced them, so every file carries its
cores, CPU model, Python version, date and load average (`machine_facts`), and the core the
service ran its rules on (`core_facts`). Tables use `rich`
when it is installed and plain aligned text otherwise.
"""

import json
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from castlegraph.resolver import core

Cell = str | int | float | None


def machine_facts() -> dict[str, Any]:
    """What the numbers depend on besides the code (design §10 budgets a 2-core machine); the
    load average says how much other programs on the same cores skewed the times."""
    return {
        "cores": os.cpu_count(),
        "cpu_model": _cpu_model(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "load_average": [round(load, 2) for load in os.getloadavg()],
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def core_facts(setting: str | None = None) -> dict[str, str]:
    """The core the run's services run their rules on (`resolver.core`) under `setting`, by
    default this process's `CASTLEGRAPH_CORE`: they start from this interpreter, so they choose
    as this does; each service's health confirms it (`bench.service.serving`). Two runs compare
    only on the same core."""
    setting = setting or os.environ.get("CASTLEGRAPH_CORE") or "auto"
    running = core.choose(setting)  # type: ignore[arg-type]  # a bad value stops the run here
    return {"name": running.name, "version": running.version, "setting": setting}


def _cpu_model() -> str | None:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        return None
    return None


def fmt(value: Cell) -> str:
    """Floats with two decimals (milliseconds, ratios), thousands separated; None as a dash."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return value


def print_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
    """One table on stdout; numbers right-aligned. Plain text without `rich`, so a bare
    environment can still run the benchmarks."""
    cells = [[fmt(value) for value in row] for row in rows]
    numeric = [
        all(isinstance(row[i], int | float) or row[i] is None for row in rows)
        for i in range(len(columns))
    ]
    try:
        from rich.console import Console  # noqa: PLC0415 - rich is optional
        from rich.table import Table  # noqa: PLC0415 - rich is optional
    except ImportError:
        _print_plain(title, columns, cells, numeric)
        return
    table = Table()  # the title is printed apart: rich would wrap it to the table's width
    for name, right in zip(columns, numeric, strict=True):
        table.add_column(name, justify="right" if right else "left")
    for row in cells:
        table.add_row(*row)
    needed = sum(max(len(c), *(len(row[i]) for row in cells)) + 3 for i, c in enumerate(columns))
    console = Console(width=max(120, Console().width, needed + 1))  # no cell cut short
    console.print(title, style="bold", highlight=False)
    console.print(table)


def _print_plain(
    title: str, columns: Sequence[str], cells: list[list[str]], numeric: list[bool]
) -> None:
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        parts = [
            v.rjust(w) if right else v.ljust(w)
            for v, w, right in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts)

    print(title)
    print(line(columns))
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print(line(row))
    print()


def write_json(path: Path, benchmark: str, params: dict[str, Any], results: Any) -> None:
    """`{benchmark, machine, core, params, results}`, pretty-printed so diffs between runs read
    well."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "benchmark": benchmark,
        "machine": machine_facts(),
        "core": core_facts(),
        "params": params,
        "results": results,
    }
    path.write_text(json.dumps(payload, indent=2) + "\n")
    print(f"results written to {path}", file=sys.stderr)


def run_workload(
    benchmark: str,
    params: dict[str, Any],
    out: Path,
    work: Callable[[], dict[str, Any]],
    *,
    timed: bool = True,
) -> dict[str, Any]:
    """Run `work` (which prints its own tables), then write its results to `out`.

    When `timed`, the whole run's wall time is added to the results as `wall_seconds` and
    printed on stderr; a workload that runs for a fixed time (load) reports its own.
    """
    started = time.perf_counter()
    results = work()
    if timed:
        results["wall_seconds"] = round(time.perf_counter() - started, 1)
        print(f"wall time {results['wall_seconds']:.1f} s", file=sys.stderr)
    write_json(out, benchmark, params, results)
    return results
