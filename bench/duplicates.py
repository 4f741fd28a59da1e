"""`find_duplicates` benchmark (design §6, §10): k-NN on the vector index against all pairs.

Budget: ≤ 30 s over 100 k drawers with 384-d embeddings, and ≥ 50 times faster than comparing
all pairs. For each size N, seeded vectors are generated with planted near-duplicate groups
(5 % of the drawers, in groups of 2-4 around a centre; every other vector is random, and random
384-d unit vectors are nearly orthogonal), loaded in bulk into a fresh embedded FalkorDB, and:

1. `graph.duplicates.duplicate_clusters(store, Scope(), 0.85)` is timed, in this process (twice:
   the first call meets a cold index);
2. `GET /api/duplicates` is timed once over HTTP against the same runtime (uvicorn thread);
3. all pairs of the same vectors are compared with numpy (float32 matrix products in blocks,
   counting pairs ≥ 0.85) in the same process: the ratio is all-pairs time / k-NN time;
4. the pairs the k-NN search found are checked against the all-pairs answer: its recall.
"""

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from api.service.runtime import Runtime
from api.service.settings import GraphSettings, Settings
from bench.duplicates_load import http_duplicates, load_drawers
from bench.report import Cell, print_table
from graph.duplicates import NEIGHBOURS, Scope, duplicate_clusters

DIM = 384
THRESHOLD = 0.85
DUPLICATE_SHARE = 0.05
GROUP_SIZES = (2, 3, 4)
MEMBER_COSINE = (0.93, 0.98)
"""Cosine of a group member to its centre; two members are then ≈ the product (0.86-0.96)."""
BLOCK = 4096
TARGET_SECONDS, TARGET_RATIO = 30.0, 50.0
COLUMNS = [
    "drawers",
    "load s",
    "k-NN s",
    "k-NN 2nd s",
    "HTTP s",
    "all-pairs s",
    "ratio",
    "pairs (all)",
    "pairs (k-NN)",
    "recall",
]

Matrix = np.ndarray[Any, np.dtype[np.float32]]


def planted_vectors(n: int, seed: int) -> tuple[Matrix, int]:
    """Unit vectors (float32) and how many drawers sit in planted groups."""
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((n, DIM), dtype=np.float32)
    budget = int(n * DUPLICATE_SHARE)
    order = rng.permutation(n)
    placed = 0
    while budget - placed >= 2:
        size = min(int(rng.choice(GROUP_SIZES)), budget - placed)
        members = order[placed : placed + size]
        placed += size
        centre = rng.standard_normal(DIM).astype(np.float32)
        centre /= np.linalg.norm(centre)
        cosine = rng.uniform(*MEMBER_COSINE)
        spread = np.sqrt((1.0 / cosine**2 - 1.0) / DIM)  # noise std giving that cosine
        noise = rng.standard_normal((size, DIM)).astype(np.float32) * spread
        vectors[members] = centre + noise
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors, placed


def all_pairs(vectors: Matrix, threshold: float) -> set[tuple[int, int]]:
    """Every pair i < j with cosine ≥ threshold: blocks of rows against the rows after them."""
    found: set[tuple[int, int]] = set()
    for start in range(0, len(vectors), BLOCK):
        scores = vectors[start : start + BLOCK] @ vectors[start:].T
        rows, cols = np.nonzero(scores >= threshold)
        for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
            if col > row:
                found.add((start + row, start + col))
    return found


def _size_run(n: int, seed: int, http: bool) -> dict[str, Any]:
    vectors, planted = planted_vectors(n, seed)
    ids = [f"d{i:07d}" for i in range(n)]
    index_of = {drawer: i for i, drawer in enumerate(ids)}
    with tempfile.TemporaryDirectory(prefix="castlegraph-dups-") as tmp:
        runtime = Runtime(Settings(graph=GraphSettings(data_dir=Path(tmp) / "data")))
        runtime.start()
        try:
            load_seconds = load_drawers(runtime.store, ids, vectors)
            print(f"{n:,}: loaded in {load_seconds:.1f} s", file=sys.stderr)
            timings = []
            for _ in range(2):
                began = time.perf_counter()
                clusters = duplicate_clusters(runtime.store, Scope(), THRESHOLD)
                timings.append(time.perf_counter() - began)
            http_seconds, http_pairs = http_duplicates(runtime, THRESHOLD) if http else (None, None)
        finally:
            runtime.stop()
    found = {tuple(sorted((index_of[p.a], index_of[p.b]))) for c in clusters for p in c.pairs}
    print(f"{n:,}: k-NN {timings[0]:.1f} s; all pairs ...", file=sys.stderr)
    began = time.perf_counter()
    truth = all_pairs(vectors, THRESHOLD)
    all_pairs_seconds = time.perf_counter() - began
    return {
        "drawers": n,
        "planted_drawers": planted,
        "load_seconds": round(load_seconds, 2),
        "knn_seconds": round(timings[0], 3),
        "knn_seconds_second_call": round(timings[1], 3),
        "http_seconds": None if http_seconds is None else round(http_seconds, 3),
        "http_pairs": http_pairs,
        "all_pairs_seconds": round(all_pairs_seconds, 3),
        "ratio": round(all_pairs_seconds / timings[0], 2),
        "pairs_all_pairs": len(truth),
        "pairs_knn": len(found),
        "pairs_knn_not_in_all_pairs": len(found - truth),
        "recall": round(len(found & truth) / len(truth), 4) if truth else None,
        "clusters": len(clusters),
    }


def run(sizes: list[int], seed: int, http: bool) -> dict[str, Any]:
    runs = [_size_run(n, seed, http) for n in sizes]
    rows: list[list[Cell]] = [
        [
            r["drawers"],
            r["load_seconds"],
            r["knn_seconds"],
            r["knn_seconds_second_call"],
            r["http_seconds"],
            r["all_pairs_seconds"],
            r["ratio"],
            r["pairs_all_pairs"],
            r["pairs_knn"],
            r["recall"],
        ]
        for r in runs
    ]
    print_table(
        f"find_duplicates (k-NN, k={NEIGHBOURS}) vs all pairs (numpy), {DIM}-d, "
        f"threshold {THRESHOLD}",
        COLUMNS,
        rows,
    )
    print(f"targets at 100 k: k-NN ≤ {TARGET_SECONDS:.0f} s, ratio ≥ {TARGET_RATIO:.0f}")
    return {"targets": {"seconds": TARGET_SECONDS, "ratio": TARGET_RATIO}, "sizes": runs}
