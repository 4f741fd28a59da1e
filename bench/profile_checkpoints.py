"""Where a checkpoint spends the service's time: `bench cores`'s checkpoint, in process.

`python -m bench.profile_checkpoints --size 100000 --items 2000 --data /tmp/dir` fills the room
`bench.profile_drawers` fills (kept in `dir`, shared), runs the service in this process on a copy
of it, posts a warm-up checkpoint, then the first `items` of `bench cores`'s timed checkpoint as
one job: its items/s, the CPU per item of this process and of its children, and each step's CPU
on the jobs thread (`bench.steps`). Not the benchmark's figure: no uvicorn, and the timing
wrappers cost ~1 µs a call."""

import argparse
import os
import sys
import time
from pathlib import Path

from bench import bulk, drawers
from bench.cores import workload
from bench.mentions import cpu_seconds
from bench.profile_drawers import filled_room, settled_service
from bench.service import child_pids
from bench.steps import Steps
from castlegraph.graph.backends import falkordb_store
from castlegraph.graph.drawers import batch_reads, candidates, drawer_batch, likeness
from castlegraph.graph.indexes import drawer_index

BATCH_STEPS = [
    (drawer_batch, "write_drawers_saving"),
    (drawer_batch, "read_batch_chosen"),
    (batch_reads._ChosenRead, "of"),
    (drawer_index.DrawerIndex, "choose_all"),
    (batch_reads, "first_ids"),
    (candidates.CurrentChosen, "__init__"),
    (drawer_batch, "_decide"),
    (drawer_batch, "likenesses_among"),
    (likeness, "compare_all"),
    (drawer_batch, "_store_part"),
    (drawer_index.DrawerIndex, "written"),
    (falkordb_store._FalkorTx, "run"),  # each statement of a batch
]
"""The steps of a checkpoint's batch (`graph.drawers.drawer_batch`) that are timed."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--items", type=int, default=2_000)
    parser.add_argument(
        "--samples", type=int, default=400, help="`bench cores`'s: its items follow these writes."
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--data", type=Path, required=True, help="Kept between runs.")
    parser.add_argument("--core", choices=("native", "python"), default="native")
    args = parser.parse_args()

    room, writes, _, batch = workload(args.size, args.samples, args.items, args.seed)
    filled = filled_room(args.data, args.size, room)
    room_name = f"room-{args.size}"
    with settled_service(filled, args.data / f"copy-{args.core}", args.core) as (_, client):
        # The test client is httpx2's, with the API of httpx's that `bulk.checkpoint` names.
        bulk.checkpoint(client, room_name, writes[: drawers.WARMUP_WRITES])  # type: ignore[arg-type]
        steps = Steps()
        database = sum(cpu_seconds(pid) for pid in child_pids(os.getpid()))
        started = time.process_time()
        with steps.timed(BATCH_STEPS):
            job = bulk.checkpoint(client, room_name, batch)  # type: ignore[arg-type]
        cpu = time.process_time() - started
        database = sum(cpu_seconds(pid) for pid in child_pids(os.getpid())) - database
    n = len(batch)
    result = {k: v for k, v in job["result"].items() if k != "failed"}
    print(
        f"{n} items: {n / bulk.seconds_of(job):.0f} items/s; CPU per item {cpu / n * 1e6:.0f} µs"
        f" in this process, {database / n * 1e6:.0f} µs in its children (the database and the"
        f" preparing worker); {result}",
        file=sys.stderr,
    )
    steps.print(n, "item")


if __name__ == "__main__":
    main()
