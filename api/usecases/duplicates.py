"""Duplicate review (design §6): embeddings, clusters of look-alikes, verdicts, hygiene.

An agent's token never embeds, pairs, judges or counts another agent's diary entries: the
caller's agent is the graph layer's viewer (design §8.1). `clusters` and `counts` are heavy
reads: at most `api.heavy_reads` run at once, over every door (`heavy_reads`).
"""

from castlegraph.api.models.duplicates import (
    DEFAULT_THRESHOLD,
    DuplicatesOut,
    EmbeddingOut,
    EmbeddingUpdate,
    HygieneOut,
    VerdictCreate,
    VerdictOut,
)
from castlegraph.api.service.heavy_reads import HeavyReads
from castlegraph.api.service.limits import check_path_segment
from castlegraph.api.service.runtime import Runtime
from castlegraph.graph.review import duplicates, embeddings


def _scope(wing: str | None, room: str | None, caller: str | None) -> duplicates.Scope:
    return duplicates.Scope(
        wing=check_path_segment("wing", wing) if wing is not None else None,
        room=check_path_segment("room", room) if room is not None else None,
        viewer=caller,
    )


class Duplicates:
    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime
        self._dimension = runtime.settings.embeddings.dimension

    @property
    def heavy_reads(self) -> HeavyReads:
        """The runtime's slots, shared by every door. An async door holds `slot()` around
        `clusters` and `counts` itself, waiting on its event loop; `find` and `hygiene` hold
        `held()`, waiting on the calling thread."""
        return self._runtime.heavy_reads

    def set_embedding(
        self, drawer_id: str, body: EmbeddingUpdate, caller: str | None
    ) -> EmbeddingOut:
        """Supply a drawer's vector; its length must be the palace's dimension."""
        dimension = embeddings.set_embedding(
            self._runtime.store, drawer_id, body.vector, self._dimension, viewer=caller
        )
        return EmbeddingOut(drawer=drawer_id, dimension=dimension)

    def clusters(
        self, wing: str | None, room: str | None, threshold: float, caller: str | None
    ) -> DuplicatesOut:
        """Clusters of current drawers alike in meaning (cosine ≥ threshold). Read-only; the
        caller holds a heavy-read slot."""
        scope = _scope(wing, room, caller)
        found = duplicates.duplicate_clusters(self._runtime.store, scope, threshold)
        return DuplicatesOut.of(threshold, found, duplicates.PAIRS_LIMIT)

    def find(
        self, wing: str | None, room: str | None, threshold: float, caller: str | None
    ) -> DuplicatesOut:
        """`clusters` within a heavy-read slot (503 `service::busy` past the wait)."""
        with self.heavy_reads.held():
            return self.clusters(wing, room, threshold, caller)

    def judge(self, body: VerdictCreate, caller: str | None) -> VerdictOut:
        """Record how a pair was judged; the pair is then left out of `clusters`. Two
        references to one drawer are 422, a superseded drawer 409 `palace::drawer_superseded`."""
        store = self._runtime.store
        scope = _scope(body.wing, body.room, caller)
        low, high = duplicates.judge_pair(store, body.a, body.b, body.status, scope)
        return VerdictOut(a=low, b=high, status=body.status)

    def counts(self, caller: str | None) -> HygieneOut:
        """What waits for review: duplicate pairs, review links, drawers without vectors (the
        drawer counts over what the caller's agent may see). The caller holds a slot."""
        found = duplicates.hygiene(self._runtime.store, DEFAULT_THRESHOLD, viewer=caller)
        return HygieneOut.of(found)

    def hygiene(self, caller: str | None) -> HygieneOut:
        """`counts` within a heavy-read slot."""
        with self.heavy_reads.held():
            return self.counts(caller)
