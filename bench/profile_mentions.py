"""Where a batch of mentions spends the service's time: `bench mentions`'s batches, in process.

`python -m bench.profile_mentions --size 100000 --data /tmp/dir` preloads `size` entities into
`dir` once (kept), starts the service's runtime and app in this process, posts the warm-up
batches, then profiles the CPU time (`--wall-clock`: wall time) of the timed ones: not a throughput
figure (no uvicorn, and cProfile slows calls unevenly). `--no-profile` times the batches instead;
`--funnel` also counts what they narrow down (`bench.mention_funnel`)."""

import argparse
import cProfile
import json
import os
import pstats
import random
import time
from contextlib import nullcontext
from pathlib import Path

from fastapi.testclient import TestClient

from bench.mention_funnel import Funnel
from bench.mention_mix import MentionMix
from bench.mention_results import BATCH
from bench.mentions import DRAWERS, NEW_SHARE_MARGIN, WARMUP_BATCHES, cpu_seconds, make_drawers
from bench.names import NameGenerator
from bench.preload import preload
from bench.service import child_pids
from castlegraph.api.http.app import create_app
from castlegraph.api.models.mentions import MentionBatchCreate
from castlegraph.api.service import heap
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.service.settings import load_settings
from castlegraph.api.usecases.assembly import UseCases

INDEX_POLL_SECONDS = 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--data", type=Path, required=True, help="Kept between runs.")
    parser.add_argument("--top", type=int, default=45)
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument(
        "--funnel", action="store_true", help="Also count what the timed batches narrow down."
    )
    parser.add_argument("--out", type=Path, help="cProfile stats file.")
    parser.add_argument(
        "--wall-clock",
        action="store_true",
        help="Profile wall time (waits on the database included) instead of this process's CPU.",
    )
    args = parser.parse_args()

    names = NameGenerator(args.seed)
    rng = random.Random(f"{args.seed}:{args.size}")
    taken: set[tuple[str, str]] = set()
    stored = names.distinct(args.size, rng, taken)
    fresh_count = int((WARMUP_BATCHES + args.batches) * BATCH * NEW_SHARE_MARGIN)
    fresh = names.distinct(fresh_count, rng, taken)
    data_dir = args.data / f"data-{args.size}"
    if not data_dir.exists():
        loaded = preload(data_dir, stored)
        print(f"loaded {args.size:,} in {loaded.load_seconds:.1f} s")
    heap.tune()
    settings = load_settings(graph={"data_dir": data_dir})
    runtime = Runtime(settings)
    runtime.start()
    try:
        app = create_app(settings, runtime)
        with TestClient(app, base_url="http://127.0.0.1") as client:
            while client.get("/api/health").json().get("entity_index") == "building":
                time.sleep(INDEX_POLL_SECONDS)
            mix = MentionMix(stored, fresh, make_drawers(client, DRAWERS))  # type: ignore[arg-type]
            mix_rng = random.Random(f"mix:{args.seed}:{args.size}")
            for _ in range(WARMUP_BATCHES):
                _post(client, mix, mix_rng)
            _time(app.state.usecases, mix, mix_rng, args)
    finally:
        runtime.stop()


def _time(
    usecases: UseCases, mix: MentionMix, rng: random.Random, args: argparse.Namespace
) -> None:
    """The timed batches: each one's CPU time, and the profile or the funnel if asked for."""
    profiler = None if args.no_profile else _profiler(wall_clock=args.wall_clock)
    seconds = []
    funnel = Funnel()
    with funnel.counting() if args.funnel else nullcontext():
        for _ in range(args.batches):
            seconds.append(_resolve(usecases, mix, rng, profiler))
    seconds.sort()
    median = seconds[len(seconds) // 2]
    print(f"batch CPU seconds {[round(s, 3) for s in seconds]}, median {median:.3f}")
    if args.funnel:
        funnel.print()
    if profiler is not None:
        stats = pstats.Stats(profiler)
        if args.out:
            stats.dump_stats(args.out)
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.sort_stats("tottime").print_stats(args.top)


def _profiler(*, wall_clock: bool) -> cProfile.Profile:
    """By default the profile counts this process's CPU time: on a shared machine, wall time
    counts the waits for a core and for the database's answers, which say nothing of the code."""
    return cProfile.Profile() if wall_clock else cProfile.Profile(time.process_time)


def _resolve(
    usecases: UseCases, mix: MentionMix, rng: random.Random, profiler: cProfile.Profile | None
) -> float:
    """One batch through the use case the route calls, on this thread (the profiler sees only
    its own): the request's parsing and the answer's encoding are left out. Its CPU time in
    this process (the database's own is not counted): on a shared machine, wall time wanders."""
    _, body = mix.batch(BATCH, rng)
    batch = MentionBatchCreate.model_validate(body)
    database = sum(cpu_seconds(pid) for pid in child_pids(os.getpid()))
    started, wall = time.process_time(), time.perf_counter()
    if profiler is not None:
        profiler.enable()
    usecases.mentions.resolve_batch(batch, None)
    if profiler is not None:
        profiler.disable()
    database = sum(cpu_seconds(pid) for pid in child_pids(os.getpid())) - database
    print(
        f"  wall {time.perf_counter() - wall:.3f} s, CPU {time.process_time() - started:.3f} s,"
        f" database CPU {database:.3f} s"
    )
    return time.process_time() - started


def _post(client: TestClient, mix: MentionMix, rng: random.Random) -> None:
    _, body = mix.batch(BATCH, rng)
    response = client.post(
        "/api/mentions", content=json.dumps(body), headers={"content-type": "application/json"}
    )
    if response.status_code != 200:
        raise RuntimeError(f"{response.status_code}: {response.text[:300]}")


if __name__ == "__main__":
    main()
