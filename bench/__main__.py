"""`python -m bench WORKLOAD`: one subcommand per workload of design §10.

A workload module exposes `run(...) -> results`; its command here parses options and hands the
run to `bench.report.run_workload`, which times it and writes the JSON, so adding a workload is
one function.
"""

from pathlib import Path
from typing import Annotated

import typer

from bench import report
from bench.service import Backend

app = typer.Typer(help="castlegraph benchmarks (design §10).", no_args_is_help=True)

Seed = Annotated[int, typer.Option(help="Seed of the generated data.")]
BackendOption = Annotated[
    Backend,
    typer.Option(
        help="Graph database of the service: embedded FalkorDB, or a Neo4j 5 server started "
        "by scripts/neo4j-server (heap NEO4J_SERVER_HEAP, default 2g)."
    ),
]


def _backend_params(backend: Backend) -> dict[str, str]:
    """The backend (and Neo4j's heap) as the JSON's params record them."""
    if backend is Backend.NEO4J:
        from bench.neo4j_server import heap  # noqa: PLC0415 - only Neo4j runs need it

        return {"backend": str(backend), "neo4j_heap": heap()}
    return {"backend": str(backend)}


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
    sizes: Annotated[str, typer.Option(help="Room sizes, comma-separated.")] = "1000,10000,100000",
    samples: Annotated[int, typer.Option(min=10, help="Timed writes per room size.")] = 300,
    seed: Seed = 7,
    backend: BackendOption = Backend.EMBEDDED,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/drawers.json"),
) -> None:
    """Single drawer-write latency over HTTP as the room grows."""
    from bench import drawers as workload  # noqa: PLC0415 - each command loads only its workload

    room_sizes = _sizes(sizes)
    params = {"sizes": room_sizes, "samples": samples, "seed": seed, **_backend_params(backend)}
    report.run_workload(
        "drawers", params, out, lambda: workload.run(room_sizes, samples, seed, backend)
    )


@app.command()
def bulk(
    sizes: Annotated[str, typer.Option(help="Room sizes, comma-separated.")] = "10000,100000",
    items: Annotated[int, typer.Option(min=10, help="Items of the timed checkpoint.")] = 10_000,
    seed: Seed = 7,
    backend: BackendOption = Backend.EMBEDDED,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/bulk.json"),
) -> None:
    """A checkpoint job of 10 k items into a room as it grows, beside single HTTP writes."""
    from bench import bulk as workload  # noqa: PLC0415 - each command loads only its workload

    room_sizes = _sizes(sizes)
    params = {"sizes": room_sizes, "items": items, "seed": seed, **_backend_params(backend)}
    report.run_workload("bulk", params, out, lambda: workload.run(room_sizes, items, seed, backend))


@app.command()
def mentions(
    sizes: Annotated[str, typer.Option(help="Entity counts, comma-separated.")] = (
        "10000,100000,1000000"
    ),
    batches: Annotated[int, typer.Option(min=3, help="Timed batches of 1,000 per size.")] = 20,
    seed: Seed = 7,
    backend: BackendOption = Backend.EMBEDDED,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/mentions.json"),
) -> None:
    """Bulk mention resolution over HTTP as the number of entities grows."""
    from bench import mentions as workload  # noqa: PLC0415 - each command loads only its workload

    entity_counts = _sizes(sizes)
    params = {"sizes": entity_counts, "batches": batches, "seed": seed, **_backend_params(backend)}
    report.run_workload(
        "mentions", params, out, lambda: workload.run(entity_counts, batches, seed, backend)
    )


@app.command()
def skew(
    entities: Annotated[int, typer.Option(min=1, help="Preloaded entities.")] = 30_000,
    entity_drawers: Annotated[
        int, typer.Option(min=1_000, help="Drawers that mention the hot entity.")
    ] = 10_000,
    rounds: Annotated[int, typer.Option(min=3, help="Timed batches of each kind.")] = 7,
    seed: Seed = 7,
    backend: BackendOption = Backend.EMBEDDED,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/skew.json"),
) -> None:
    """Mentions into a drawer of 20,000 mentions or of a much-mentioned entity vs spread ones."""
    from bench import skew as workload  # noqa: PLC0415 - each command loads only its workload

    params = {
        "entities": entities,
        "entity_drawers": entity_drawers,
        "rounds": rounds,
        "seed": seed,
        **_backend_params(backend),
    }
    report.run_workload(
        "skew",
        params,
        out,
        lambda: workload.run(entities, entity_drawers, rounds, seed, backend),
    )


@app.command()
def quality(
    scale: Annotated[float, typer.Option(min=0.05, help="Size of the labelled stream.")] = 1.0,
    sweep: Annotated[bool, typer.Option(help="Also rerun with other lexicons.")] = True,
    baselines: Annotated[bool, typer.Option(help="Also run the three baselines.")] = True,
    seed: Seed = 7,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/quality.json"),
) -> None:
    """Resolution precision, recall and review load per rule, next to three baselines."""
    from bench.er_quality import run as workload  # noqa: PLC0415 - each command loads only its workload

    params = {"scale": scale, "sweep": sweep, "baselines": baselines, "seed": seed}
    report.run_workload("quality", params, out, lambda: workload.run(seed, scale, sweep, baselines))


@app.command()
def duplicates(
    sizes: Annotated[str, typer.Option(help="Drawer counts, comma-separated.")] = "10000,100000",
    http: Annotated[bool, typer.Option(help="Also time GET /api/duplicates once.")] = True,
    seed: Seed = 7,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path(
        "bench/results/duplicates.json"
    ),
) -> None:
    """`find_duplicates` (k-NN on the vector index) against comparing all pairs."""
    from bench import duplicates as workload  # noqa: PLC0415 - each command loads only its workload

    drawer_counts = _sizes(sizes)
    params = {"sizes": drawer_counts, "http": http, "seed": seed}
    report.run_workload("duplicates", params, out, lambda: workload.run(drawer_counts, seed, http))


@app.command()
def load(
    seconds: Annotated[float, typer.Option(min=5, help="How long the 16 clients run.")] = 180,
    seed: Seed = 7,
    backend: BackendOption = Backend.EMBEDDED,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/load.json"),
) -> None:
    """16 concurrent clients on loopback, with hazards thrown in (mining /dev/zero and a FIFO,
    checkpoints at and over the cap) and health polled throughout; then checks that nothing
    was lost or duplicated and health stayed 200."""
    from bench import load as workload  # noqa: PLC0415 - each command loads only its workload

    params = {"seconds": seconds, "seed": seed, **_backend_params(backend)}
    results = report.run_workload(
        "load", params, out, lambda: workload.run(seconds, seed, backend), timed=False
    )
    failures = ("server_errors", "duplicate_entities", "lost_mentions", "checkpoint_lost")
    if any(results[name] for name in failures):
        raise typer.Exit(1)
    if results["health_not_200"] or results["hazard_problems"]:
        raise typer.Exit(1)


if __name__ == "__main__":
    app()
