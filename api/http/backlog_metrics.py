"""Gauges of what waits for review and of the in-memory indexes, for `/metrics`.

The review counts are hygiene's (`graph.review.duplicates.hygiene`, over every drawer), read
from the graph at most once per `BACKLOG_SECONDS`: a scrape every few seconds must not count
the whole backlog each time, and a backlog a minute old says as much. The index states and
sizes cost nothing (a count of the drawer index's dead rows: a byte scan).
"""

import threading
import time
from collections.abc import Callable, Iterator

from prometheus_client.core import GaugeMetricFamily, Metric

from castlegraph.api.models.duplicates import DEFAULT_THRESHOLD
from castlegraph.api.service.runtime import Runtime
from castlegraph.graph.review.duplicates import Hygiene, hygiene
from castlegraph.resolver.errors import CastlegraphError

BACKLOG_SECONDS = 60.0
INDEX_STATES = ("off", "building", "ready", "failed")
BACKLOG = (
    ("castlegraph_review_links_pending", "Review links (POSSIBLY_SAME_AS) awaiting a verdict"),
    ("castlegraph_duplicate_pairs_pending", "Duplicate pairs awaiting a verdict"),
    ("castlegraph_drawers_without_embedding", "Drawers without a stored vector"),
)


class ReviewBacklog:
    """A collector: the review counts, read at most once per interval."""

    def __init__(self, runtime: Runtime, clock: Callable[[], float] = time.monotonic) -> None:
        self._runtime = runtime
        self._clock = clock
        self._lock = threading.Lock()
        self._counts: Hygiene | None = None
        self._read_at = 0.0

    def describe(self) -> list[Metric]:
        return [GaugeMetricFamily(name, text) for name, text in BACKLOG]

    def collect(self) -> Iterator[Metric]:
        counts = self._current()
        if counts is None:
            return  # not ready, or the database failed: castlegraph_graph_ready tells
        values = (
            counts.possibly_same_as_pending,
            counts.duplicate_pairs_pending,
            counts.drawers_without_embedding,
        )
        for (name, text), count in zip(BACKLOG, values, strict=True):
            yield GaugeMetricFamily(name, text, value=count)

    def _current(self) -> Hygiene | None:
        if not self._runtime.ready:
            return None
        with self._lock:
            now = self._clock()
            if self._counts is None or now - self._read_at >= BACKLOG_SECONDS:
                try:
                    self._counts = hygiene(self._runtime.store, DEFAULT_THRESHOLD)
                except CastlegraphError:
                    return self._counts
                self._read_at = now
            return self._counts


class IndexStates:
    """A collector: which state each in-memory candidate index is in (`off` when not kept)."""

    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime

    def describe(self) -> list[Metric]:
        return list(self._families())

    def collect(self) -> Iterator[Metric]:
        states, sizes, items = self._families()
        for name, index in (
            ("entity", self._runtime.entity_index),
            ("drawer", self._runtime.drawer_index),
        ):
            state = "off" if index is None else index.state
            for candidate in INDEX_STATES:
                states.add_metric([name, candidate], 1.0 if candidate == state else 0.0)
            if index is not None and state == "ready":
                sizes.add_metric([name], index.nbytes)
                items.add_metric([name], index.indexed)
        yield from (states, sizes, items)

    @staticmethod
    def _families() -> tuple[GaugeMetricFamily, GaugeMetricFamily, GaugeMetricFamily]:
        """The states, and for a ready index its arrays' bytes and what it indexes: their
        quotient is what an entity (a drawer) costs the service's memory (design §10)."""
        return (
            GaugeMetricFamily(
                "castlegraph_memory_index",
                "1 for the state each in-memory candidate index is in",
                labels=["index", "state"],
            ),
            GaugeMetricFamily(
                "castlegraph_memory_index_bytes",
                "Bytes the arrays of each ready in-memory candidate index hold",
                labels=["index"],
            ),
            GaugeMetricFamily(
                "castlegraph_memory_index_items",
                "Entities (drawers) each ready in-memory candidate index holds",
                labels=["index"],
            ),
        )
