"""`python -m bench WORKLOAD`: one subcommand per workload of DESIGN §10.

A workload module exposes `run(...) -> results`; its command here parses options, times the
whole run and writes the JSON through `bench.report`, so adding a workload is one function.
"""

import time
from pathlib import Path
from typing import Annotated

import typer

from bench import report

app = typer.Typer(help="castlegraph benchmarks (DESIGN §10).", no_args_is_help=True)

Seed = Annotated[int, typer.Option(help="Seed of the generated data.")]


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError as error:
        raise typer.BadParameter(f"not a comma-separated list of integers: {text!r}") from error
    if not sizes or min(sizes) < 1:
        raise typer.BadParameter("sizes must be positive")
    return sizes


@app.callback()
def main() -> None:
    """Each command starts its own service on a fresh temporary data directory."""


@app.command()
def drawers(
    sizes: Annotated[str, typer.Option(help="Room sizes, comma-separated.")] = "1000,10000,50000",
    samples: Annotated[int, typer.Option(min=10, help="Timed writes per room size.")] = 300,
    seed: Seed = 7,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/drawers.json"),
) -> None:
    """Single drawer-write latency over HTTP as the room grows."""
    from bench import drawers as workload  # noqa: PLC0415 - each command loads only its workload

    room_sizes = _sizes(sizes)
    params = {"sizes": room_sizes, "samples": samples, "seed": seed}
    started = time.perf_counter()
    results = workload.run(room_sizes, samples, seed)
    results["wall_seconds"] = round(time.perf_counter() - started, 1)
    typer.echo(f"wall time {results['wall_seconds']:.1f} s", err=True)
    report.write_json(out, "drawers", params, results)


if __name__ == "__main__":
    app()
