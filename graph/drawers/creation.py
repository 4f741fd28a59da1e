"""The statement that creates a drawer a write decided to store (`Creation`), and what it
stamped for the in-memory index once committed (`Sequenced`).
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from castlegraph.graph.backends.queries import Dialect
from castlegraph.graph.backends.store import Row
from castlegraph.graph.clock import utc_now
from castlegraph.graph.drawers.drawer_props import drawer_write_props, joined, new_drawer_record
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.drawers.likeness import link_evidence, similar_entry
from castlegraph.graph.indexes.drawer_index import DrawerIndex
from castlegraph.graph.indexes.known_drawers import KnownDrawer
from castlegraph.graph.records import Drawer, SimilarDrawer, WriteOutcome
from castlegraph.resolver.drawers import Likeness, PreparedText


@dataclass
class Sequenced:
    """What a write unit's create statement stamped, for the in-memory index once committed."""

    epoch: str | None = None
    seq: int = 0
    drawers: list[tuple[str, list[str], KnownDrawer]] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)

    def stamped(self, rows: list[Row]) -> None:
        self.epoch, self.seq = rows[0]["epoch"], int(rows[0]["seq"])

    def done(self, memory: DrawerIndex | None, outcome: WriteOutcome) -> WriteOutcome:
        if memory is not None and outcome.created and self.seq:
            memory.written(self.epoch, self.seq, self.drawers, self.closed)
        return outcome


@dataclass(frozen=True, slots=True)
class Creation:
    """The drawer a write stores, the links it answers with and its statement's parameters."""

    drawer: Drawer
    prepared: PreparedText
    similar: list[SimilarDrawer]
    replaced: Drawer | None
    params: dict[str, Any]

    @classmethod
    def of(
        cls,
        new: NewDrawer,
        prepared: PreparedText,
        likenesses: Sequence[Likeness],
        replaced: Drawer | None,
        policy: DedupPolicy,
        dialect: Dialect,
    ) -> "Creation":
        now = utc_now()
        drawer = new_drawer_record(new, prepared.text, now, replaced)
        similar = [similar_entry(link, policy.near_threshold, now) for link in likenesses]
        links = [{"other": entry.drawer, "evidence": link_evidence(entry)} for entry in similar]
        # Two statements, not one with an optional match: FalkorDB plans `{id: null}` as a scan.
        replacing = {"supersedes": replaced.id, "now": now} if replaced else {}
        stored_terms = prepared.terms.stored
        params = {
            **replacing,
            "wing": new.wing,
            "room": new.room,
            "props": drawer_write_props(drawer, stored_terms, dialect),
            "terms": joined(stored_terms),
            "links": links,
        }
        return cls(drawer, prepared, similar, replaced, params)

    def written(self, rows: list[Row], stored: Sequenced) -> WriteOutcome:
        """The outcome, once its statement created the drawer (`rows`: what it returned)."""
        drawer, replaced = self.drawer, self.replaced
        stored.stamped(rows)
        stored.drawers = [
            (drawer.id, self.prepared.terms.stored, KnownDrawer.of(drawer, self.prepared.text))
        ]
        stored.closed = [replaced.id] if replaced else []
        return WriteOutcome(
            created=True,
            drawer=drawer,
            similar=self.similar,
            superseded=replaced.id if replaced else None,
        )
