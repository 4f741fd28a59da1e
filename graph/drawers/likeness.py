"""The duplicate decision of a write: what the current holder of its name makes of it
(`same_named`), then, once its candidates are read, the exact copy it returns instead of storing
(`oldest_exact_copy`), the likenesses it links (`likenesses_among`) and the evidence a SIMILAR_TO
link carries. Shared by one write and a batch's items.
"""

from collections.abc import Iterable
from typing import Any

from castlegraph.graph.drawers.candidates import Candidate
from castlegraph.graph.drawers.drawer_request import NewDrawer
from castlegraph.graph.drawers.visibility import visible
from castlegraph.graph.errors import DrawerNameTaken
from castlegraph.graph.records import Drawer, SimilarDrawer, WriteOutcome
from castlegraph.resolver.drawers import DrawerText, Likeness, compare_all, may_be_near, strongest


def oldest_exact_copy(text: DrawerText, candidates: Iterable[Candidate]) -> Drawer | None:
    """The oldest candidate with the same content hash (candidates that came whole)."""
    same = [
        c.drawer
        for c in candidates
        if c.drawer is not None and c.drawer.content_hash == text.content_hash
    ]
    return min(same, key=lambda d: (d.created_at, d.id)) if same else None


def likenesses_among(
    text: DrawerText, candidates: Iterable[Candidate], threshold: float
) -> list[Likeness]:
    """The links a new drawer earns with its candidates: each compared (a candidate that came
    whole always, one known by length only when the lengths allow a near copy)."""
    length = len(text.normalized)
    compared = [
        (c.id, c.text)
        for c in candidates
        if c.drawer is not None or may_be_near(length, c.norm_len, threshold)
    ]
    return strongest(link for link in compare_all(text, compared, threshold) if link is not None)


def link_evidence(entry: SimilarDrawer) -> dict[str, Any]:
    """What a SIMILAR_TO edge carries: the evidence the write answered with."""
    return {
        "kind": entry.kind,
        "similarity": entry.similarity,
        "same_hash": entry.same_hash,
        "same_fingerprint": entry.same_fingerprint,
        "threshold": entry.threshold,
        "created_at": entry.created_at,
    }


def similar_entry(link: Likeness, threshold: float, now: str) -> SimilarDrawer:
    return SimilarDrawer(
        drawer=link.other_id,
        side="older",
        kind=link.kind,
        similarity=link.similarity,
        same_hash=link.same_hash,
        same_fingerprint=link.same_fingerprint,
        threshold=threshold,
        created_at=now,
    )


def same_named(
    new: NewDrawer, holder: Drawer | None, supersede: bool
) -> Drawer | WriteOutcome | None:
    """What the current holder of the new drawer's name makes of the write: nothing (None), the
    holder itself (same content), or the drawer it replaces (`supersede`); else the name is
    taken. A holder the writer may not see keeps the name unique but stays unnamed."""
    if holder is None:
        return None
    if not visible(holder.kind, holder.agent, new.viewer):
        raise DrawerNameTaken(new.wing, new.room, new.name or "", None)
    if holder.content == new.content:
        return WriteOutcome(created=False, drawer=holder, similar=[])
    if not supersede:
        raise DrawerNameTaken(new.wing, new.room, new.name or "", holder.id)
    return holder
