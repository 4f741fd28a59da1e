"""One item of a drawer batch (`graph.drawers.drawer_batch`) as its decision needs it: its text,
terms and probes prepared before the write (`PreparedDrawer`), and an earlier item being stored,
which the indexes would give as a candidate of the items after it (`Stored`).
"""

from dataclasses import dataclass

from castlegraph.graph.drawers.candidates import (
    candidate_params,
    probe_params,
)
from castlegraph.graph.drawers.drawer_request import NewDrawer
from castlegraph.graph.records import Drawer
from castlegraph.resolver.drawers import DrawerText, PreparedText


@dataclass(frozen=True, slots=True)
class PreparedDrawer:
    """One item with everything its decision needs, computed once and before the write: it
    reads nothing, so no write waits on the lock while an item is sketched
    (`prepare_drawers`)."""

    index: int
    new: NewDrawer
    text: DrawerText
    anchors: list[str]
    bands: list[str]
    lengths: tuple[int, int]
    """The candidates' normal-form lengths that allow a near copy (`near_lengths`)."""
    stored_terms: list[str]
    """What it is indexed by once stored (word pairs, bands of its own length bucket)."""
    indexed: frozenset[str]

    @classmethod
    def of(cls, index: int, new: NewDrawer, prepared: PreparedText) -> "PreparedDrawer":
        """The item with its text prepared for its room (`prepare_text`)."""
        return cls(
            index=index,
            new=new,
            text=prepared.text,
            anchors=prepared.terms.anchors,
            bands=prepared.terms.bands,
            lengths=prepared.lengths,
            stored_terms=prepared.terms.stored,
            indexed=frozenset(prepared.terms.stored),
        )

    @property
    def place(self) -> tuple[str, str]:
        return self.new.wing, self.new.room

    def probe(self) -> dict[str, object]:
        """The item's parameters of `drawer_batch_candidates`: those of one write, tagged."""
        params = probe_params(self.new, self.text, self.anchors, self.bands, self.lengths)
        return {"item": self.index, **params}

    def single_probe(self) -> dict[str, object]:
        """The item's parameters of `drawer_candidates`, as one write of it would read."""
        return candidate_params(self.new, self.text, self.anchors, self.bands, self.lengths)

    def finds(self, earlier: "Stored") -> bool:
        """Whether the indexes would give `earlier`, once stored, as this item's candidate."""
        other, drawer = earlier.item, earlier.drawer
        text = self.text
        # What the indexes share first: most earlier items of a batch share nothing with it,
        # and these set and string tests cost less than the rule of who compares with whom.
        shares = (
            other.text.content_hash == text.content_hash
            or (text.fingerprint is not None and other.text.fingerprint == text.fingerprint)
            or not other.indexed.isdisjoint(self.anchors)
            or not other.indexed.isdisjoint(self.bands)
        )
        return shares and self.new.compares_with(
            drawer.wing, drawer.room, drawer.agent, drawer.kind
        )


@dataclass(frozen=True, slots=True)
class Stored:
    """An item of the batch that is being stored: a candidate of the items after it."""

    item: PreparedDrawer
    drawer: Drawer
