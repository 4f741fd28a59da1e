"""Where a mention batch and a drawer write spend their time on Neo4j, round trip by round trip.

`python -m bench.profile_neo4j --entities 20000 --drawers 2000` starts a Neo4j, preloads the
entities, runs the service in this process, fills a room, then times batches of 1,000 mentions
and single drawer writes through the use cases: each Bolt exchange (BEGIN, each statement's
client time and server time, COMMIT), the unit's wall time, this process's and the JVM's CPU
time. Not a throughput figure: no uvicorn, and the tracing costs a little per statement.
"""

import argparse
import cProfile
import logging
import os
import random
import statistics
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import neo4j
from fastapi.testclient import TestClient

from bench import jit
from bench.corpus import Corpus, Kind, Text
from bench.mention_mix import MentionMix
from bench.mention_results import BATCH
from bench.mentions import (
    DRAWERS,
    MAX_WARMUP_BATCHES,
    NEW_SHARE_MARGIN,
    WARMUP_BATCHES,
    cpu_seconds,
    make_drawers,
)
from bench.names import NameGenerator
from bench.neo4j_server import PASSWORD, USER, neo4j_server
from bench.preload import preload_neo4j
from bench.service import until_quiet
from castlegraph.api.http.app import create_app
from castlegraph.api.models.drawers import DrawerCreate
from castlegraph.api.models.mentions import MentionBatchCreate
from castlegraph.api.service import heap
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.service.settings import load_settings
from castlegraph.graph.backends import neo4j_store

ROOM = "profile"
INDEX_POLL_SECONDS = 0.5
FILL_NEAR, FILL_EXACT = 0.05, 0.02
SAMPLE_NEAR, SAMPLE_EXACT = 0.10, 0.05


@dataclass
class Step:
    """One Bolt exchange of a unit: a statement, or BEGIN / COMMIT (no server times)."""

    name: str
    wall_ms: float
    available_ms: float = 0.0
    consumed_ms: float = 0.0


@dataclass
class Trace:
    """The exchanges of the units run while it records."""

    steps: list[Step] = field(default_factory=list)
    units: int = 0
    attempts: int = 0


_trace: Trace | None = None
_traced_thread: int | None = None


def _traced() -> Trace | None:
    """The trace, on the thread that started it only: the job runner's polls are not a write's."""
    return _trace if threading.get_ident() == _traced_thread else None


def _record(step: Step) -> None:
    trace = _traced()
    if trace is not None:
        trace.steps.append(step)


@contextmanager
def tracing() -> Iterator[Trace]:
    global _trace, _traced_thread  # noqa: PLW0603  # one traced section at a time
    _trace, _traced_thread = Trace(), threading.get_ident()
    try:
        yield _trace
    finally:
        _trace = None


def _install() -> None:
    """Wrap the store's statement runner and the driver's BEGIN / COMMIT with timers."""

    def run(self: Any, name: str, /, *, text: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        started = time.perf_counter()
        result = self._tx.run(text, params)
        rows = [record.data() for record in result]
        summary = result.consume()
        _record(
            Step(
                name,
                (time.perf_counter() - started) * 1000,
                float(summary.result_available_after or 0),
                float(summary.result_consumed_after or 0),
            )
        )
        return rows

    neo4j_store._Neo4jTx._run = run  # type: ignore[method-assign]
    transaction = neo4j._sync.work.transaction.TransactionBase
    for method, label in (("_begin", "BEGIN"), ("_commit", "COMMIT")):
        transaction_method = getattr(transaction, method)
        setattr(transaction, method, _timed(transaction_method, label))
    execute = neo4j_store.Neo4jStore._execute

    def counted(self: Any, mode: str, work: Callable[[Any], Any], use_case: str) -> Any:
        trace = _traced()
        if trace is not None:
            trace.units += 1

        def attempt(tx: Any) -> Any:
            if trace is not None:
                trace.attempts += 1
            return work(tx)

        return execute(self, mode, attempt, use_case)

    neo4j_store.Neo4jStore._execute = counted  # type: ignore[method-assign]


def _timed(method: Callable[..., Any], label: str) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            _record(Step(label, (time.perf_counter() - started) * 1000))

    return timed


@dataclass
class Sample:
    """One traced unit of work: its trace, wall and CPU times."""

    trace: Trace
    wall_ms: float
    cpu_ms: float
    database_cpu_ms: float


_profiler: cProfile.Profile | None = None


def measured(database_pid: int, action: Callable[[], object]) -> Sample:
    database = cpu_seconds(database_pid)
    cpu, wall = time.process_time(), time.perf_counter()
    with tracing() as trace:
        if _profiler is not None:
            _profiler.runcall(action)
        else:
            action()
    return Sample(
        trace,
        (time.perf_counter() - wall) * 1000,
        (time.process_time() - cpu) * 1000,
        (cpu_seconds(database_pid) - database) * 1000,
    )


def report(title: str, samples: list[Sample]) -> None:
    """Per exchange name: count per unit, median client wall and server times per unit."""
    count = len(samples)
    by_name: dict[str, list[list[Step]]] = defaultdict(lambda: [[] for _ in samples])
    for n, sample in enumerate(samples):
        for step in sample.trace.steps:
            by_name[step.name][n].append(step)

    def median(values: list[float]) -> float:
        return statistics.median(values) if values else 0.0

    print(f"\n{title}: {count} samples (medians per unit)")
    print(f"{'exchange':34} {'per unit':>8} {'client ms':>10} {'server ms':>10}")
    trips = 0.0
    for name, per_sample in sorted(by_name.items(), key=lambda item: item[0]):
        per_unit = sum(len(steps) for steps in per_sample) / count
        trips += per_unit
        wall = median([sum(s.wall_ms for s in steps) for steps in per_sample])
        server = median(
            [sum(s.available_ms + s.consumed_ms for s in steps) for steps in per_sample]
        )
        print(f"{name:34} {per_unit:8.2f} {wall:10.2f} {server:10.2f}")
    walls = sorted(s.wall_ms for s in samples)
    print(f"{'round trips per unit':34} {trips:8.2f}")
    print(
        f"units per sample {median([float(s.trace.units) for s in samples]):.0f}, "
        f"attempts {sum(s.trace.attempts for s in samples) / count:.2f}"
    )
    print(f"wall ms  p50 {median(walls):.2f}  p90 {walls[int(0.9 * (count - 1))]:.2f}")
    print(
        f"service CPU ms p50 {median([s.cpu_ms for s in samples]):.2f}, "
        f"Neo4j CPU ms p50 {median([s.database_cpu_ms for s in samples]):.2f} "
        f"(mean {statistics.fmean(s.database_cpu_ms for s in samples):.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entities", type=int, default=20_000)
    parser.add_argument("--drawers", type=int, default=2_000)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--writes", type=int, default=150)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cprofile", type=Path, help="cProfile stats of the timed units")
    args = parser.parse_args()
    _install()
    global _profiler  # noqa: PLW0603
    _profiler = cProfile.Profile() if args.cprofile else None
    print(f"load average {os.getloadavg()}", file=sys.stderr)
    with TemporaryDirectory(prefix="castlegraph-profile-") as tmp, ExitStack() as stack:
        server = stack.enter_context(neo4j_server(Path(tmp) / "neo4j.log"))
        names = NameGenerator(args.seed)
        rng = random.Random(f"{args.seed}:{args.entities}")
        taken: set[tuple[str, str]] = set()
        stored = names.distinct(args.entities, rng, taken)
        fresh = names.distinct(
            int((MAX_WARMUP_BATCHES + args.batches) * BATCH * NEW_SHARE_MARGIN), rng, taken
        )
        loaded = preload_neo4j(server.uri, USER, PASSWORD, stored)
        print(f"loaded {args.entities:,} entities in {loaded.load_seconds:.1f} s", file=sys.stderr)
        heap.tune()
        settings = load_settings(
            graph={
                "data_dir": Path(tmp) / "data",
                "neo4j_uri": server.uri,
                "neo4j_user": USER,
                "neo4j_password": PASSWORD,
            }
        )
        runtime = Runtime(settings)
        runtime.start()
        logging.disable(logging.INFO)  # a line per request would drown the tables
        stack.callback(runtime.stop)
        app = create_app(settings, runtime)
        client = stack.enter_context(TestClient(app, base_url="http://127.0.0.1"))
        while client.get("/api/health").json().get("entity_index") == "building":
            time.sleep(INDEX_POLL_SECONDS)
        # Neo4j may still be at work on the load (Lucene merging its full-text index's
        # segments): the timed batches start once it is quiet, so it works on theirs alone.
        quiet = until_quiet(lambda: cpu_seconds(server.pid), "Neo4j")
        print(f"Neo4j quiet after {quiet:.0f} s", file=sys.stderr)
        usecases = app.state.usecases
        _mentions(usecases, client, server.pid, stored, fresh, args)
        _drawers(usecases, client, server.pid, args)
        if _profiler is not None:
            _profiler.dump_stats(args.cprofile)
    print(f"load average {os.getloadavg()}", file=sys.stderr)


def _mentions(
    usecases: Any, client: TestClient, pid: int, stored: Any, fresh: Any, args: Any
) -> None:
    mix = MentionMix(stored, fresh, make_drawers(client, DRAWERS))  # type: ignore[arg-type]
    rng = random.Random(f"mix:{args.seed}:{args.entities}")

    def resolved() -> Sample:
        _, body = mix.batch(BATCH, rng)
        batch = MentionBatchCreate.model_validate(body)
        return measured(pid, partial(usecases.mentions.resolve_batch, batch, None))

    warmed = jit.warm_up(
        resolved,
        lambda: jit.compiler_cpu_seconds(pid),
        least=WARMUP_BATCHES,
        most=MAX_WARMUP_BATCHES,
    )
    print(f"warmed up: {warmed.summary('batches')}", file=sys.stderr)
    samples = [resolved() for _ in range(args.batches)]
    report(f"mention batch of {BATCH:,} at {args.entities:,} entities", samples)


def _drawers(usecases: Any, client: TestClient, pid: int, args: Any) -> None:
    corpus = Corpus(args.seed)
    rng = random.Random(f"{args.seed}:{args.drawers}")
    room = corpus.room(args.drawers, rng, FILL_NEAR, FILL_EXACT)
    started = time.perf_counter()
    for text in room:
        usecases.drawers.write("bench", ROOM, DrawerCreate(content=text.content), None)
    print(
        f"filled {args.drawers:,} drawers in {time.perf_counter() - started:.1f} s", file=sys.stderr
    )
    written: list[Text] = list(room)
    timed = [Text(Kind.NEW, corpus.text(rng)) for _ in range(5)]
    while len(timed) < 5 + args.writes:
        text = corpus.follow(written, rng, SAMPLE_NEAR, SAMPLE_EXACT)
        timed.append(text)
        written.append(text)
    samples = []
    for number, text in enumerate(timed):
        body = DrawerCreate(content=text.content)
        sample = measured(pid, partial(usecases.drawers.write, "bench", ROOM, body, None))
        if number >= 5:
            samples.append(sample)
    report(f"single drawer write in a room of {args.drawers:,}", samples)


if __name__ == "__main__":
    main()
