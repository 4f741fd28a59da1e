"""`find_duplicates` benchmark (design §6, §10): stored pending pairs, a whole k-NN pass, all pairs.

For each size, seeded 384-d vectors with planted near-duplicate groups are bulk-loaded into a
fresh database; `find_duplicates` and hygiene are timed and their pairs compared with all pairs
computed in numpy in the same run (`_measure_size`). `shared_vector_storage` then stores many
drawers with one vector. `--backend neo4j | both` as every workload (`bench.compare`).
"""

import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import SecretStr

from bench.duplicates_load import http_duplicates, load_drawers
from bench.neo4j_server import PASSWORD, USER
from bench.report import Cell, print_table
from bench.service import Backend, start_database
from bench.targets import bound
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.service.settings import GraphSettings, Settings
from castlegraph.graph.errors import GraphError
from castlegraph.graph.review.duplicate_pairs import rebuild_pending_pairs
from castlegraph.graph.review.duplicates import Scope, duplicate_clusters, hygiene
from castlegraph.graph.review.embeddings import set_embedding

DIM = 384
THRESHOLD = 0.85
DUPLICATE_SHARE = 0.05
GROUP_SIZES = (2, 3, 4)
MEMBER_COSINE = (0.93, 0.98)
"""Cosine of a group member to its centre; two members are then ≈ the product (0.86-0.96)."""
BLOCK = 4096
TARGET_SECONDS, TARGET_GROWTH = bound("duplicates", "find_seconds"), bound("duplicates", "growth")
TARGET_HYGIENE = bound("duplicates", "hygiene_seconds")
INCREMENTAL = 200
SHARED, SHARED_NEAR = 5000, 5
STORED_ROWS = {
    "vector groups": "MATCH (g:VectorGroup) RETURN count(g) AS n",
    "group pairs": "MATCH (:VectorGroup)-[p]->(:VectorGroup) RETURN count(p) AS n",
    "drawer-to-drawer edges": "MATCH (:Drawer)-[e]->(:Drawer) RETURN count(e) AS n",
}
COLUMNS = [
    "drawers",
    "load s",
    "full pass s",
    "find s",
    "find 2nd s",
    "hygiene s",
    "embed ms",
    "HTTP s",
    "all-pairs s",
    "× find",
    "× pass",
    "pairs (all)",
    "pairs (found)",
    "recall",
]
KEYS = (
    "drawers",
    "load_seconds",
    "full_pass_seconds",
    "find_seconds",
    "find_seconds_second_call",
    "hygiene_seconds",
    "embed_ms_per_vector",
    "http_seconds",
    "all_pairs_seconds",
    "all_pairs_over_find",
    "all_pairs_over_full_pass",
    "pairs_all_pairs",
    "pairs_found",
    "recall",
)
"""The results key of each column (a size that failed has only `drawers` and `error`)."""

Matrix = np.ndarray[Any, np.dtype[np.float32]]


def planted_vectors(n: int, seed: int) -> tuple[Matrix, int]:
    """Unit vectors (float32) and how many drawers sit in planted groups: `DUPLICATE_SHARE` of
    the drawers, in groups of 2-4 around a centre. Every other vector is random, and random
    384-d unit vectors are nearly orthogonal."""
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


def _settings(stack: ExitStack, backend: Backend) -> Settings:
    """A fresh embedded data directory, or a fresh Neo4j server, held open by `stack`."""
    tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="castlegraph-dups-")))
    neo4j = start_database(stack, backend, tmp / "neo4j.log")
    if neo4j is None:
        return Settings(graph=GraphSettings(data_dir=tmp / "data"))
    graph = GraphSettings(
        data_dir=tmp / "data",
        neo4j_uri=neo4j.uri,
        neo4j_user=USER,
        neo4j_password=SecretStr(PASSWORD),
    )
    return Settings(graph=graph)


def _size_run(n: int, seed: int, http: bool, backend: Backend) -> dict[str, Any]:
    """One size; a database error (Neo4j timing a statement out) ends this size, not the run:
    its numbers stay empty (`not measured`) and the error is reported beside them."""
    try:
        return _measure_size(n, seed, http, backend)
    except GraphError as error:
        print(f"{n:,} on {backend}: {type(error).__name__}: {error}", file=sys.stderr)
        return {"drawers": n, "error": f"{type(error).__name__}: {error}"}


def _measure_size(n: int, seed: int, http: bool, backend: Backend) -> dict[str, Any]:
    """Load `n` drawers in bulk, then time, in order:

    1. the vector groups and their pairs, built by one exact all-pairs pass
       (`rebuild_pending_pairs`, as migrations 9 and 13: the loader writes past `set_embedding`);
    2. `INCREMENTAL` more vectors through `set_embedding`, each compared in memory with every
       stored one (the first reads them all): the per-vector cost of keeping the pairs;
    3. `duplicate_clusters` at 0.85, which reads the stored pairs, and `hygiene` (twice each),
       and `GET /api/duplicates` once over HTTP against the same runtime;
    4. all pairs of the same vectors in numpy: the ratio all-pairs time / find time, and the
       recall of the pairs find returned.
    """
    vectors, planted = planted_vectors(n + INCREMENTAL, seed)
    ids = [f"d{i:07d}" for i in range(n + INCREMENTAL)]
    index_of = {drawer: i for i, drawer in enumerate(ids)}
    with ExitStack() as stack:
        runtime = Runtime(_settings(stack, backend))
        runtime.start()
        try:
            store = runtime.store
            load_seconds = load_drawers(store, ids[:n], vectors[:n])
            print(f"{n:,}: loaded in {load_seconds:.1f} s", file=sys.stderr)
            began = time.perf_counter()
            rebuild_pending_pairs(store)
            full_pass = time.perf_counter() - began
            began = time.perf_counter()
            load_drawers(store, ids[n:], vectors[n:], embed=False)
            for i in range(n, n + INCREMENTAL):
                set_embedding(store, ids[i], vectors[i].tolist(), None)
            embed_ms = (time.perf_counter() - began) * 1000 / INCREMENTAL
            timings, hygiene_timings = [], []
            for _ in range(2):
                began = time.perf_counter()
                clusters = duplicate_clusters(store, Scope(), THRESHOLD)
                timings.append(time.perf_counter() - began)
                began = time.perf_counter()
                report = hygiene(store, THRESHOLD)
                hygiene_timings.append(time.perf_counter() - began)
            http_seconds, http_pairs = http_duplicates(runtime, THRESHOLD) if http else (None, None)
        finally:
            runtime.stop()
    found = {tuple(sorted((index_of[p.a], index_of[p.b]))) for c in clusters for p in c.pairs}
    print(f"{n:,}: pass {full_pass:.1f} s, find {timings[0]:.2f} s; all pairs", file=sys.stderr)
    began = time.perf_counter()
    truth = all_pairs(vectors, THRESHOLD)
    all_pairs_seconds = time.perf_counter() - began
    return {
        "drawers": n,
        "incremental_vectors": INCREMENTAL,
        "planted_drawers": planted,
        "load_seconds": round(load_seconds, 2),
        "full_pass_seconds": round(full_pass, 3),
        "find_seconds": round(timings[0], 3),
        "find_seconds_second_call": round(timings[1], 3),
        "hygiene_seconds": round(min(hygiene_timings), 3),
        "hygiene_pending": report.duplicate_pairs_pending,
        "embed_ms_per_vector": round(embed_ms, 2),
        "http_seconds": None if http_seconds is None else round(http_seconds, 3),
        "http_pairs": http_pairs,
        "all_pairs_seconds": round(all_pairs_seconds, 3),
        "all_pairs_over_find": round(all_pairs_seconds / timings[0], 2),
        "all_pairs_over_full_pass": round(all_pairs_seconds / full_pass, 2),
        "pairs_all_pairs": len(truth),
        "pairs_found": len(found),
        "pairs_found_not_in_all_pairs": len(found - truth),
        "recall": round(len(found & truth) / len(truth), 4) if truth else None,
        "clusters": len(clusters),
    }


def shared_vector_storage(n: int, backend: Backend) -> dict[str, Any]:
    """`n` drawers given one vector through `set_embedding` (the write path), then 5 given a
    near one: what is stored (vector groups, their pairs, drawer-to-drawer edges) against the
    n(n-1)/2 drawer pairs they hold, and the time to cluster and count them (design §10:
    storage linear in drawers when 5,000 share one vector)."""
    ids = [f"s{i:07d}" for i in range(n + SHARED_NEAR)]
    shared = np.zeros((n + SHARED_NEAR, DIM), dtype=np.float32)
    shared[:, 0] = 1.0
    shared[n:, 1] = 0.04  # cosine 0.9992 with the shared vector
    with ExitStack() as stack:
        runtime = Runtime(_settings(stack, backend))
        runtime.start()
        try:
            store = runtime.store
            load_drawers(store, ids, shared, embed=False)
            began = time.perf_counter()
            for i, drawer in enumerate(ids):
                set_embedding(store, drawer, shared[i].tolist(), None)
            embed_ms = (time.perf_counter() - began) * 1000 / len(ids)
            counts = {
                name: int(store.run_text(query, {})[0]["n"]) for name, query in STORED_ROWS.items()
            }
            began = time.perf_counter()
            clusters = duplicate_clusters(store, Scope(), THRESHOLD)
            find_seconds = time.perf_counter() - began
            began = time.perf_counter()
            report = hygiene(store, THRESHOLD)
            hygiene_seconds = time.perf_counter() - began
        finally:
            runtime.stop()
    total = n + SHARED_NEAR
    return {
        "drawers": total,
        **counts,
        "drawer_pairs": total * (total - 1) // 2,
        "embed_ms_per_vector": round(embed_ms, 2),
        "find_seconds": round(find_seconds, 3),
        "hygiene_seconds": round(hygiene_seconds, 3),
        "hygiene_pending": report.duplicate_pairs_pending,
        "cluster_sizes": [c.size for c in clusters],
        "cluster_pairs_total": [c.total_pairs for c in clusters],
        "pairs_listed": [len(c.pairs) for c in clusters],
    }


def run(sizes: list[int], seed: int, http: bool, backend: Backend) -> dict[str, Any]:
    runs = [_size_run(n, seed, http, backend) for n in sizes]
    storage = shared_vector_storage(SHARED, backend)
    print_table(
        f"{storage['drawers']:,} drawers, {SHARED:,} sharing one vector, on {backend}: what is "
        "stored",
        [*STORED_ROWS, "drawer pairs", "find s", "hygiene s", "hygiene pending"],
        [
            [
                *(storage[name] for name in STORED_ROWS),
                storage["drawer_pairs"],
                storage["find_seconds"],
                storage["hygiene_seconds"],
                storage["hygiene_pending"],
            ]
        ],
    )
    rows: list[list[Cell]] = [[r.get(key) for key in KEYS] for r in runs]
    print_table(
        f"find_duplicates from vector groups (pairs kept per new vector, exact) vs a whole "
        f"rebuild pass vs all pairs (numpy; × = all-pairs time / ours), {DIM}-d, threshold "
        f"{THRESHOLD}, on {backend}",
        COLUMNS,
        rows,
    )
    first, last = runs[0].get("find_seconds"), runs[-1].get("find_seconds")
    growth = last / first if len(runs) > 1 and first and last is not None else None
    for r in runs:
        if "error" in r:
            print(f"  {r['drawers']:,} drawers on {backend}: {r['error']}")
    targets = {"seconds": TARGET_SECONDS, "growth": TARGET_GROWTH, "hygiene": TARGET_HYGIENE}
    return {
        "backend": str(backend),
        "targets": targets,
        "growth": growth,
        "sizes": runs,
        "shared_vector_storage": storage,
    }
