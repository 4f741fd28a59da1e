"""Review links and curation (design §5.6, §11): the POSSIBLY_SAME_AS links waiting for a
verdict, the verdicts, and the spellings recorded by hand.

Entities are not an agent's own, so every caller sees every link: no call here takes a caller.
"""

from typing import Literal

from castlegraph.api.models.entities import (
    AliasCreate,
    CandidateOut,
    EntityOut,
    ReviewLinkPage,
    ReviewVerdictCreate,
    SettledOut,
)
from castlegraph.api.service.runtime import Runtime
from castlegraph.graph.entities import entity_curation as curation
from castlegraph.graph.entities.review_links import review_links
from castlegraph.resolver.entity_keys import normalize_kind

Shown = Literal["pending", "settled", "all"]
"""Which review links of an entity `candidates` lists."""
LinkStatus = Literal["pending", "same", "different"]


class Review:
    def __init__(self, runtime: Runtime) -> None:
        """The runtime gives the store, and the in-memory entity index once it exists."""
        self._runtime = runtime

    def candidates(self, entity_id: str, status: Shown = "pending") -> list[CandidateOut]:
        """POSSIBLY_SAME_AS links, by similarity descending then id: the pending ones, or with
        `settled` those settled (`same` or `different`), or `all`."""
        store = self._runtime.store
        found = curation.review_candidates(store, entity_id, pending_only=status == "pending")
        kept = [c for c in found if status != "settled" or c.status != "pending"]
        return [CandidateOut.of(c) for c in kept]

    def links(
        self,
        status: LinkStatus,
        kind: str | None,
        reason: str | None,
        limit: int,
        cursor: str | None,
    ) -> ReviewLinkPage:
        """Review links of one status, by similarity descending then the older and the newer
        entity's id (design §11); `kind` on either side."""
        store = self._runtime.store
        wanted_kind = normalize_kind(kind) if kind is not None and kind.strip() else None
        found, next_cursor = review_links(
            store, status, kind=wanted_kind, reason=reason or None, limit=limit, cursor=cursor
        )
        return ReviewLinkPage.of(found, next_cursor)

    def add_alias(self, entity_id: str, body: AliasCreate) -> EntityOut:
        """Record a spelling; later sightings converge by rule `alias`. Nothing is merged, and
        a spelling of another entity is refused (`graph::alias_taken`): that is a `same`
        verdict."""
        runtime = self._runtime
        found = curation.add_alias(runtime.store, entity_id, body.alias, runtime.entity_index)
        return EntityOut.of(found)

    def settle(self, entity_id: str, other_id: str, body: ReviewVerdictCreate) -> SettledOut:
        """`same` records the newer name as an alias of the older (returned); `different`
        closes, and on a link settled `same` removes that alias again (`"undone": "same"`)."""
        settled = curation.settle_review(self._runtime.store, entity_id, other_id, body.verdict)
        return SettledOut.settled(settled)
