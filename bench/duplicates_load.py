"""Fast set-up for `bench duplicates`: bulk-loaded drawers, and one HTTP call on the same runtime.

`find_duplicates` never reads what a drawer write spends most on (dedup candidates, room
structure), so drawers are created in batches, one `UNWIND` statement each, with only what the
duplicate search and `Drawer.from_props` need, and their vectors.
"""

import hashlib
import socket
import threading
import time
from typing import Any

import httpx
import numpy as np
import uvicorn

from castlegraph.api.http.app import create_app
from castlegraph.api.service.runtime import Runtime
from castlegraph.graph.backends.falkordb_store import FalkorStore
from castlegraph.graph.backends.neo4j_store import Neo4jStore
from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.review.embeddings import set_embedding

LOAD_BATCH = 500
ROOMS = 20
CREATE_DRAWERS = (
    "UNWIND $rows AS row CREATE (d:Drawer) SET d = row.props, d.embedding = vecf32(row.vector)"
)
CREATE_DRAWERS_NEO4J = (
    "UNWIND $rows AS row CREATE (d:Drawer) SET d = row.props "
    "WITH d, row CALL db.create.setNodeVectorProperty(d, 'embedding', row.vector)"
)
CREATE_BARE = "UNWIND $rows AS row CREATE (d:Drawer) SET d = row.props"
HTTP_TIMEOUT_SECONDS = 600.0


def _props(drawer: str, number: int) -> dict[str, Any]:
    content = f"bench drawer {number}"
    return {
        "id": drawer,
        "wing": "bench",
        "room": f"room-{number % ROOMS}",
        "content": content,
        "content_hash": hashlib.sha256(content.encode()).hexdigest(),
        "kind": "manual",
        "created_at": "2025-01-01T00:00:00+00:00",
    }


def _rows(ids: list[str], vectors: np.ndarray[Any, Any], start: int) -> list[dict[str, Any]]:
    return [
        {"props": _props(drawer, start + i), "vector": vectors[start + i].tolist()}
        for i, drawer in enumerate(ids[start : start + LOAD_BATCH])
    ]


def load_drawers(
    store: GraphStore, ids: list[str], vectors: np.ndarray[Any, Any], *, embed: bool = True
) -> float:
    """Create the drawers, with their vectors unless `embed` is false; returns the seconds.

    The first vector goes through `set_embedding`, which records the palace's dimension and
    creates the vector index, so the rest are indexed as they arrive: building the index over
    100 k vectors at once could outlast the store's wait for it. On Neo4j the vector is set
    with `db.create.setNodeVectorProperty`, as `set_embedding` does there."""
    if isinstance(store, FalkorStore):
        create = CREATE_DRAWERS
    elif isinstance(store, Neo4jStore):
        create = CREATE_DRAWERS_NEO4J
    else:
        raise TypeError(f"no bulk loader for {type(store).__name__}")
    began = time.perf_counter()
    for start in range(0, len(ids), LOAD_BATCH):
        rows = _rows(ids, vectors, start)
        if not embed:
            store.run_text(CREATE_BARE, {"rows": [{"props": row["props"]} for row in rows]})
            continue
        store.run_text(create, {"rows": rows})
        if start == 0:
            set_embedding(store, ids[0], vectors[0].tolist(), None)
    return time.perf_counter() - began


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def http_duplicates(runtime: Runtime, threshold: float) -> tuple[float, int]:
    """Time one `GET /api/duplicates` served by uvicorn on this runtime; (seconds, pairs)."""
    port = _free_port()
    app = create_app(runtime.settings, runtime)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="bench-http", daemon=True)
    thread.start()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=HTTP_TIMEOUT_SECONDS) as c:
            for _ in range(200):
                try:
                    if c.get("/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.05)
            began = time.perf_counter()
            response = c.get("/api/duplicates", params={"threshold": threshold})
            seconds = time.perf_counter() - began
            response.raise_for_status()
        pairs = sum(len(cluster["pairs"]) for cluster in response.json()["clusters"])
        return seconds, pairs
    finally:
        server.should_exit = True
        thread.join(timeout=30)
