"""The in-memory entity index's segment search alone, numpy's code against the compiled core.

`python -m bench.segment_search --sizes 10000,100000` builds, per size, the key index a service
builds (`graph.indexes.key_segments`: `bench.names`' entities' stored keys, built in blocks as
`EntityIndex.build` does), then looks up the probes of batches of 1,000 mentions (one-edit probes
for all, review probes for a fifth) with each core bound in turn, in one sitting: the median
lookup per batch, the answers' agreement and the index's bytes per entity.
"""

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench.mention_mix import typo, variant
from bench.names import NameGenerator
from castlegraph.graph.indexes.key_segments import KeyIndex, key_hashes
from castlegraph.resolver import core as chosen_core
from castlegraph.resolver.entity_keys import entity_key
from castlegraph.resolver.entity_search_keys import probe_keys, spellings_keys

BATCH = 1_000
REVIEW_SHARE = 0.2
"""Mentions that also send review (two-edit) probes: those that met no one-edit candidate."""
PAGE = 2_000


def build(size: int, seed: int) -> tuple[KeyIndex, list[str]]:
    """The key index of `size` entities, and their names (to mention)."""
    rng = random.Random(f"{seed}:{size}")
    named = NameGenerator(seed).distinct(size, rng, set())
    index = KeyIndex()
    filler = index.filler()
    for start in range(0, size, PAGE):
        page = named[start : start + PAGE]
        spelled = [
            spellings_keys([entity_key(n.name), *map(entity_key, n.aliases)], cached=False)
            for n in page
        ]
        first = index.rows
        for n in page:
            index.row_for(str(random.Random(n.name).getrandbits(128)))
        counts = np.fromiter(map(len, spelled), dtype=np.int64, count=len(spelled))
        hashes = key_hashes([key for keys in spelled for key in keys])
        filler.append(hashes, np.repeat(np.arange(first, index.rows), counts))
    filler.close()
    return index, [n.name for n in named]


def batch_probes(names: list[str], rng: random.Random) -> list[str]:
    """The probes of a batch: a known name, a variant or a typo of one, each mention's one-edit
    probes, a fifth its review probes too."""
    probes: set[str] = set()
    for _ in range(BATCH):
        name = rng.choice(names)
        spelled = rng.choice((name, variant(name, rng), typo(name, rng)))
        key = entity_key(spelled)
        probes |= probe_keys(key, two_edits=rng.random() < REVIEW_SHARE)
    return list(probes)


def timed_lookup(index: KeyIndex, probes: list[str], core: Any) -> tuple[float, Any]:
    """One lookup with `core` bound (None: numpy's code), and its CPU time: on a shared
    machine wall time mostly measures the other programs."""
    chosen_core.segments = core
    started = time.process_time()
    found = index.lookup_rows(probes)
    return time.process_time() - started, found


def run(sizes: list[int], batches: int, seed: int) -> dict[str, Any]:
    core = chosen_core.native_module()
    if core is None:
        raise SystemExit("the compiled core is not built (or CASTLEGRAPH_CORE=python)")
    results = []
    for size in sizes:
        started = time.perf_counter()
        index, names = build(size, seed)
        print(f"{size:,}: built in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        rng = random.Random(f"probes:{seed}:{size}")
        python_s, native_s, probes_n, hits_n = [], [], [], []
        for _ in range(batches):
            probes = batch_probes(names, rng)
            seconds_py, by_py = timed_lookup(index, probes, None)
            seconds_native, by_native = timed_lookup(index, probes, core)
            if {k: (sorted(v[0]), v[1]) for k, v in by_py.items()} != {
                k: (sorted(v[0]), v[1]) for k, v in by_native.items()
            }:
                raise SystemExit("the two cores answered differently")
            python_s.append(seconds_py)
            native_s.append(seconds_native)
            probes_n.append(len(probes))
            hits_n.append(len(by_py))
        chosen_core.segments = core
        found = {
            "size": size,
            "segments": len(index.segments),
            "entries": index.entries,
            "index_bytes_per_entity": round(index.nbytes / index.rows, 1),
            "probes_per_batch_median": statistics.median(probes_n),
            "entities_hit_per_batch_median": statistics.median(hits_n),
            "lookup_cpu_ms_median_python": round(statistics.median(python_s) * 1000, 1),
            "lookup_cpu_ms_median_native": round(statistics.median(native_s) * 1000, 1),
        }
        found["speedup"] = round(
            found["lookup_cpu_ms_median_python"] / found["lookup_cpu_ms_median_native"], 2
        )
        print(json.dumps(found), file=sys.stderr)
        results.append(found)
        del index, names
    return {"batches": batches, "seed": seed, "sizes": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    found = run([int(s) for s in args.sizes.split(",")], args.batches, args.seed)
    text = json.dumps(found, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
