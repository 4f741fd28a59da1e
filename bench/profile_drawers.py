"""Where one drawer write spends the service's time: `bench cores`'s single writes, in process.

`python -m bench.profile_drawers --size 100000 --data /tmp/dir` fills the room `bench cores`
fills into `dir` once (kept), starts the runtime and app on a copy of it in this process, and
times the single writes through the use case the route calls: each step's CPU time (`--steps`)
or a cProfile by CPU time. Not a latency figure: no uvicorn, and the profiler slows calls.
"""

import argparse
import cProfile
import os
import pstats
import shutil
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from bench import drawers
from bench.cores import _fill, _wait_for_indexes, generated
from bench.corpus import Text
from bench.mentions import cpu_seconds
from bench.service import QUIET_TIMEOUT_SECONDS, child_pids, serving, until_quiet
from bench.steps import Steps
from castlegraph.api.http.app import create_app
from castlegraph.api.models import drawers as models
from castlegraph.api.models.drawers import DrawerCreate
from castlegraph.api.service import heap
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.service.settings import load_settings
from castlegraph.graph.backends import falkordb_store
from castlegraph.graph.drawers import candidates, creation, palace
from castlegraph.graph.indexes import drawer_index
from castlegraph.resolver import core

INDEX_POLL_SECONDS = 0.5


def filled_room(data: Path, size: int, room: list[Text]) -> Path:
    filled = data / f"room-{size}"
    if not filled.exists():
        staging = data / f"room-{size}.filling"
        shutil.rmtree(staging, ignore_errors=True)
        with serving(staging, data / "fill.log") as service:
            _wait_for_indexes(service)
            print(f"filled in {_fill(service, f'room-{size}', room):.0f} s", file=sys.stderr)
        staging.rename(filled)
    return filled


WRITE_STEPS = [
    (palace, "prepare_text"),
    (candidates.Lookup, "of"),
    (drawer_index.DrawerIndex, "choose"),
    (drawer_index.DrawerIndex, "_newest_live"),
    (palace, "known_candidates"),
    (palace, "chosen_candidates"),
    (palace, "likenesses_among"),
    (creation.Creation, "of"),
    (creation.Creation, "written"),
    (creation.Sequenced, "done"),
    (models.DrawerWriteOut, "of"),
    (falkordb_store._FalkorTx, "run"),  # each statement of a write
]
"""The steps of one write (`graph.drawers.palace`) that `--steps` times."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--data", type=Path, required=True, help="Kept between runs.")
    parser.add_argument("--core", choices=("native", "python"), default="native")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--steps", action="store_true", help="Each step's CPU, no profiler.")
    parser.add_argument("--no-profile", action="store_true")
    args = parser.parse_args()

    _, _, room, _, writes = generated(args.size, args.samples, args.seed)
    filled = filled_room(args.data, args.size, room)
    with settled_service(filled, args.data / f"copy-{args.core}", args.core) as (app, _):
        usecases = app.state.usecases
        bodies = [DrawerCreate(content=text.content) for text in writes]
        for body in bodies[: drawers.WARMUP_WRITES]:
            usecases.drawers.write(drawers.WING, f"room-{args.size}", body, None)
        _time(usecases, bodies[drawers.WARMUP_WRITES :], args)


@contextmanager
def settled_service(
    filled: Path, copy: Path, core_name: str
) -> Iterator[tuple[FastAPI, TestClient]]:
    """The service's app in this process, and a client of it, on a copy of the room `filled`
    (removed after) and the core `core_name`, once settled (`wait_until_settled`)."""
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(filled, copy)
    os.environ["CASTLEGRAPH_CORE"] = core_name
    heap.tune()
    settings = load_settings(graph={"data_dir": copy}, dedup={"core": core_name})
    runtime = Runtime(settings)
    runtime.start()
    try:
        app = create_app(settings, runtime)
        with TestClient(app, base_url="http://127.0.0.1") as client:
            wait_until_settled(client)
            print(f"core {core.running()}", file=sys.stderr)
            yield app, client
    finally:
        runtime.stop()
        shutil.rmtree(copy, ignore_errors=True)


def wait_until_settled(client: TestClient) -> None:
    """Until both in-memory indexes are ready and this process has gone quiet: once ready,
    the drawer index makes the room's drawers known (`DrawerIndex.warm`, ~15 s at 100 k), and
    writes timed meanwhile shared the GIL with it and read the drawers it had not reached yet
    from the database (a sixth of them went the read path), which no settled service does."""
    started = time.perf_counter()
    while time.perf_counter() - started < QUIET_TIMEOUT_SECONDS:
        health = client.get("/api/health").json()
        if health.get("drawer_index") == "ready" and health.get("entity_index") in ("ready", "off"):
            break
        time.sleep(INDEX_POLL_SECONDS)
    until_quiet(time.process_time, "this process")
    print(f"settled in {time.perf_counter() - started:.0f} s", file=sys.stderr)


def _time(usecases: Any, bodies: list[DrawerCreate], args: argparse.Namespace) -> None:
    """The writes one by one through the use case (its answer's encoding included): each
    one's CPU time in this process and the database's, and the profile or the steps."""
    profiler = None if args.no_profile or args.steps else cProfile.Profile(time.thread_time)
    room = f"room-{args.size}"
    cpu, walls = [], []
    database = sum(cpu_seconds(pid) for pid in child_pids(os.getpid()))
    steps = Steps()
    with steps.timed(WRITE_STEPS) if args.steps else nullcontext():
        for body in bodies:
            started, wall = time.thread_time(), time.perf_counter()
            if profiler is not None:
                profiler.enable()
            usecases.drawers.write(drawers.WING, room, body, None)
            if profiler is not None:
                profiler.disable()
            walls.append(time.perf_counter() - wall)
            cpu.append(time.thread_time() - started)
    database = sum(cpu_seconds(pid) for pid in child_pids(os.getpid())) - database
    n = len(bodies)
    print(
        f"{n} writes: CPU per write p50 {statistics.median(cpu) * 1e6:.0f} µs, mean"
        f" {statistics.fmean(cpu) * 1e6:.0f} µs; wall p50 {statistics.median(walls) * 1e3:.2f}"
        f" ms; database CPU {database / n * 1e6:.0f} µs per write"
    )
    steps.print(n, "write")
    if profiler is not None:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
