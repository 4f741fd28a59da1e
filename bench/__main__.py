"""`python -m bench WORKLOAD`: one subcommand per workload of design §10.

A workload module exposes `run(...) -> results`; its command here parses options and hands the
run to `bench.report.run_workload`, which times it and writes the JSON, so adding a workload is
one function.
"""

from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from bench import compare, report
from bench.service import Backend
from castlegraph.api.service.settings import load_settings
from castlegraph.graph.backends.opener import neo4j_driver

app = typer.Typer(help="castlegraph benchmarks (design §10).", no_args_is_help=True)


class Backends(StrEnum):
    """`--backend`: one graph database, or both in one run (`bench.compare`)."""

    EMBEDDED = "embedded"
    NEO4J = "neo4j"
    BOTH = "both"


SKEW_ENTITIES, SKEW_ENTITY_DRAWERS, SKEW_ROUNDS, SKEW_SHARED_KINDS = 30_000, 10_000, 7, 10_000
"""`bench skew`'s defaults, which `bench mentions` runs too."""

Seed = Annotated[int, typer.Option(help="Seed of the generated data.")]
BackendOption = Annotated[
    Backends,
    typer.Option(
        help="Graph database of the service: embedded FalkorDB, a Neo4j 5 server started "
        "by scripts/neo4j-server (heap NEO4J_SERVER_HEAP, default 2g), or both in one run "
        "with a side-by-side table."
    ),
]


def _backend_params(backend: Backends) -> dict[str, str | bool]:
    """The backend (Neo4j's heap, and whether its candidate indexes were left to memory) as
    the JSON's params record them."""
    if backend is not Backends.EMBEDDED:
        from bench.neo4j_server import heap  # noqa: PLC0415 - only Neo4j runs need it

        params: dict[str, str | bool] = {
            "backend": str(backend),
            "neo4j_heap": heap(),
            "neo4j_driver": neo4j_driver(),
        }
        # As the service started from here will read it: the environment, or castlegraph.toml.
        if load_settings().graph.neo4j_memory_indexes_only:
            params["neo4j_memory_indexes_only"] = True
        return params
    return {"backend": str(backend)}


def _run(
    name: str,
    params: dict[str, Any],
    out: Path,
    work: Callable[[Backend], dict[str, Any]],
    backend: Backends,
    *,
    timed: bool = True,
) -> dict[str, Any]:
    """`work` on the backend chosen (or on both, side by side), judged against design §10."""
    if backend is Backends.BOTH:
        return report.run_workload(
            name, params, out, lambda: compare.run_both(name, work), timed=timed
        )
    chosen = Backend(str(backend))
    return report.run_workload(
        name, params, out, lambda: compare.judged(name, work(chosen), chosen), timed=timed
    )


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
    samples: Annotated[
        int, typer.Option(min=10, help="Timed writes per room size, half on each client.")
    ] = 600,
    seed: Seed = 7,
    backend: BackendOption = Backends.EMBEDDED,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/drawers.json"),
) -> None:
    """Single drawer-write latency over HTTP as the room grows."""
    from bench import drawers as workload  # noqa: PLC0415 - each command loads only its workload

    room_sizes = _sizes(sizes)
    params = {"sizes": room_sizes, "samples": samples, "seed": seed, **_backend_params(backend)}
    _run("drawers", params, out, lambda b: workload.run(room_sizes, samples, seed, b), backend)


@app.command()
def bulk(
    sizes: Annotated[str, typer.Option(help="Room sizes, comma-separated.")] = "10000,100000",
    items: Annotated[int, typer.Option(min=10, help="Items of the timed checkpoint.")] = 10_000,
    seed: Seed = 7,
    backend: BackendOption = Backends.EMBEDDED,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/bulk.json"),
) -> None:
    """A checkpoint job of 10 k items into a room as it grows, beside single HTTP writes."""
    from bench import bulk as workload  # noqa: PLC0415 - each command loads only its workload

    room_sizes = _sizes(sizes)
    params = {"sizes": room_sizes, "items": items, "seed": seed, **_backend_params(backend)}
    _run("bulk", params, out, lambda b: workload.run(room_sizes, items, seed, b), backend)


@app.command()
def cores(
    size: Annotated[int, typer.Option(min=1, help="Drawers in the room.")] = 100_000,
    samples: Annotated[int, typer.Option(min=10, help="Timed single writes per core.")] = 400,
    items: Annotated[int, typer.Option(min=10, help="Items of the timed checkpoint.")] = 10_000,
    seed: Seed = 7,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/cores.json"),
    filled: Annotated[
        Path | None,
        typer.Option(help="Keep the filled room here, and take it from here when it is there."),
    ] = None,
) -> None:
    """Drawer writes and a checkpoint in one room, the pure-Python core beside the compiled one
    (embedded; needs the compiled core built)."""
    from bench import cores as workload  # noqa: PLC0415 - each command loads only its workload

    params = {"size": size, "samples": samples, "items": items, "seed": seed}
    report.run_workload(
        "cores", params, out, lambda: workload.run(size, samples, items, seed, filled)
    )


@app.command()
def mentions(
    sizes: Annotated[str, typer.Option(help="Entity counts, comma-separated.")] = (
        "10000,100000,1000000"
    ),
    batches: Annotated[int, typer.Option(min=3, help="Timed batches of 1,000 per size.")] = 20,
    skew: Annotated[
        bool, typer.Option(help="Also run the skew case (`bench skew` with its defaults).")
    ] = True,
    peers: Annotated[
        bool, typer.Option(help="Also time the peers' resolvers on the same mentions.")
    ] = True,
    seed: Seed = 7,
    backend: BackendOption = Backends.EMBEDDED,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/mentions.json"),
) -> None:
    """Bulk mention resolution over HTTP as the number of entities grows, then the skew case."""
    from bench import mentions as workload  # noqa: PLC0415 - each command loads only its workload
    from bench import skew as skewed  # noqa: PLC0415 - each command loads only its workload

    entity_counts = _sizes(sizes)
    params = {
        "sizes": entity_counts,
        "batches": batches,
        "skew": skew,
        "peers": peers,
        "seed": seed,
        **_backend_params(backend),
    }

    def work(chosen: Backend) -> dict[str, Any]:
        results = workload.run(entity_counts, batches, seed, chosen, peers=peers)
        if skew:
            results["skew"] = skewed.run(
                SKEW_ENTITIES, SKEW_ENTITY_DRAWERS, SKEW_ROUNDS, seed, chosen
            )
        return results

    _run("mentions", params, out, work, backend)


@app.command()
def skew(
    entities: Annotated[int, typer.Option(min=1, help="Preloaded entities.")] = SKEW_ENTITIES,
    entity_drawers: Annotated[
        int, typer.Option(min=1_000, help="Drawers that mention the hot entity.")
    ] = SKEW_ENTITY_DRAWERS,
    rounds: Annotated[int, typer.Option(min=3, help="Timed batches of each kind.")] = SKEW_ROUNDS,
    shared_kinds: Annotated[
        int, typer.Option(min=500, help="Stored entities of other kinds sharing one key.")
    ] = SKEW_SHARED_KINDS,
    seed: Seed = 7,
    backend: BackendOption = Backends.EMBEDDED,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/skew.json"),
) -> None:
    """Mentions into a drawer of 20,000 mentions, of a much-mentioned entity, or of a key 10,000
    kinds share, vs spread ones."""
    from bench import skew as workload  # noqa: PLC0415 - each command loads only its workload

    params = {
        "entities": entities,
        "entity_drawers": entity_drawers,
        "rounds": rounds,
        "shared_kinds": shared_kinds,
        "seed": seed,
        **_backend_params(backend),
    }
    _run(
        "skew",
        params,
        out,
        lambda b: workload.run(entities, entity_drawers, rounds, seed, b, shared_kinds),
        backend,
    )


@app.command()
def quality(
    scale: Annotated[float, typer.Option(min=0.05, help="Size of the labelled stream.")] = 1.0,
    sweep: Annotated[bool, typer.Option(help="Also rerun with other lexicons.")] = True,
    baselines: Annotated[bool, typer.Option(help="Also run the three baselines.")] = True,
    merges: Annotated[bool, typer.Option(help="List every false merge of castlegraph.")] = False,
    seed: Seed = 7,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/quality.json"),
) -> None:
    """Resolution precision, recall and review load per rule, next to three baselines."""
    from bench.er_quality import run as workload  # noqa: PLC0415 - each command loads only its workload

    params = {"scale": scale, "sweep": sweep, "baselines": baselines, "seed": seed}
    report.run_workload(
        "quality",
        params,
        out,
        lambda: compare.judged(
            "quality", workload.run(seed, scale, sweep, baselines, merges), None
        ),
    )


@app.command()
def duplicates(
    sizes: Annotated[str, typer.Option(help="Drawer counts, comma-separated.")] = "10000,100000",
    http: Annotated[bool, typer.Option(help="Also time GET /api/duplicates once.")] = True,
    seed: Seed = 7,
    backend: BackendOption = Backends.EMBEDDED,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path(
        "bench/results/duplicates.json"
    ),
) -> None:
    """`find_duplicates` (vector groups, pairs kept exactly) against comparing all pairs, and
    what is stored when 5,000 drawers share one vector."""
    from bench import duplicates as workload  # noqa: PLC0415 - each command loads only its workload

    drawer_counts = _sizes(sizes)
    params = {"sizes": drawer_counts, "http": http, "seed": seed, **_backend_params(backend)}
    _run("duplicates", params, out, lambda b: workload.run(drawer_counts, seed, http, b), backend)


@app.command("review-page")
def review_page(
    links: Annotated[int, typer.Option(min=1, help="Pending review links seeded.")] = 100_000,
    samples: Annotated[int, typer.Option(min=2, help="First screens timed.")] = 30,
    seed: Seed = 7,
    backend: BackendOption = Backends.EMBEDDED,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path(
        "bench/results/review_page.json"
    ),
) -> None:
    """The review page's first screen (its files, the queue's first page, the first link's
    mentions and drawers) with many pending review links."""
    from bench import review_page as workload  # noqa: PLC0415 - each command loads only its workload

    params = {"links": links, "samples": samples, "seed": seed, **_backend_params(backend)}
    _run("review-page", params, out, lambda b: workload.run(links, samples, seed, b), backend)


@app.command()
def load(
    seconds: Annotated[float, typer.Option(min=5, help="How long the 16 clients run.")] = 180,
    seed: Seed = 7,
    backend: BackendOption = Backends.EMBEDDED,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/load.json"),
) -> None:
    """16 concurrent clients on loopback, with hazards thrown in (mining /dev/zero and a FIFO,
    checkpoints at and over the cap) and health polled throughout; then checks that nothing
    was lost or duplicated and health stayed 200."""
    from bench import load as workload  # noqa: PLC0415 - each command loads only its workload

    params = {"seconds": seconds, "seed": seed, **_backend_params(backend)}
    results = _run(
        "load", params, out, lambda b: workload.run(seconds, seed, b), backend, timed=False
    )
    runs = results["backends"].values() if backend is Backends.BOTH else [results]
    failures = ("server_errors", "duplicate_entities", "lost_mentions", "checkpoint_lost")
    for run in runs:
        if any(run[name] for name in failures):
            raise typer.Exit(1)
        if run["health_not_200"] or run["hazard_problems"]:
            raise typer.Exit(1)


@app.command()
def instances(
    entities: Annotated[int, typer.Option(min=1_000, help="Seeded entities.")] = 20_000,
    batches: Annotated[
        int, typer.Option(min=1, help="Batches of 500 per extractor, setup and round.")
    ] = 6,
    rounds: Annotated[int, typer.Option(min=1, help="Rounds of both setups.")] = 3,
    seed: Seed = 7,
    backend: Annotated[
        Backends, typer.Option(help="neo4j only: the embedded FalkorDB has one instance.")
    ] = Backends.NEO4J,
    out: Annotated[Path, typer.Option(help="JSON results.")] = Path("bench/results/instances.json"),
) -> None:
    """Two service instances on one Neo4j against one: mentions/s of two extractors of
    different kinds, and the time their batches spend on locks (Neo4j only)."""
    from bench import instances as workload  # noqa: PLC0415 - each command loads only its workload

    if backend is not Backends.NEO4J:
        raise typer.BadParameter("only Neo4j serves several instances", param_hint="--backend")

    params = {
        "entities": entities,
        "batches": batches,
        "rounds": rounds,
        "seed": seed,
        **_backend_params(Backends.NEO4J),
    }
    report.run_workload(
        "instances",
        params,
        out,
        lambda: compare.judged(
            "instances", workload.run(entities, batches, rounds, seed), Backend.NEO4J
        ),
    )


@app.command("report")
def report_page(
    results: Annotated[Path, typer.Option(help="Folder of the workloads' JSON results.")] = Path(
        "bench/results"
    ),
    out: Annotated[Path, typer.Option(help="The page to write.")] = Path("docs/performance.md"),
) -> None:
    """Render docs/performance.md from the latest JSON result of each workload (no run)."""
    from bench import render  # noqa: PLC0415 - each command loads only what it needs

    count = render.write(results, out)
    if count == 0:
        raise typer.BadParameter(f"no JSON results in {results}", param_hint="--results")
    typer.echo(f"{out}: {count} workloads rendered from {results}", err=True)


if __name__ == "__main__":
    app()
