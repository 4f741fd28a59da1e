"""The review links of the whole palace, a page at a time (design §11, listing review links).

A curator works through the pending links, or looks back at those settled, without naming an
entity first. The links are found by the index on their `status` (never a walk over all
entities), ordered by similarity descending, then by the older entity's id and the newer
one's, and paged by a cursor that holds the last link's three: a link settled or created
between two pages moves in or out of its status, but never repeats a link a page showed.
"""

import math
from dataclasses import dataclass
from typing import Any

from castlegraph.graph.backends.store import GraphStore, Tx
from castlegraph.graph.cursors import decode_cursor, encode_cursor
from castlegraph.graph.errors import InvalidCursor
from castlegraph.graph.records import Entity

TOLERANCE = 1e-9
"""How near the cursor's similarity a link's must be to count as equal: FalkorDB answers a
double with 15 significant digits, so the cursor may hold 0.888888888888889 for a link stored
as 0.8888888888888888. Similarities are `1 - d/L` of short keys: distinct ones lie far apart."""


FIRST_BAND = 0.01
BAND_GROWTH = 4
"""A page is read from a band of similarities just below the cursor's, through the index on
the links' similarity, and the band grows until it holds the page or every similarity: a
curator's first page at 100,000 pending links reads a few hundred of them, where ordering
every pending link by similarity read them all."""


@dataclass(frozen=True, slots=True)
class ReviewLinkRecord:
    """One POSSIBLY_SAME_AS link: `older` received the alias if settled `same`."""

    older: Entity
    newer: Entity
    reason: str
    similarity: float
    status: str
    created_at: str

    @classmethod
    def of(cls, row: dict[str, Any]) -> "ReviewLinkRecord":
        link = row["link"]
        return cls(
            older=Entity.from_props(row["a"]),
            newer=Entity.from_props(row["b"]),
            reason=link["reason"],
            similarity=float(link["similarity"]),
            status=link["status"],
            created_at=link["created_at"],
        )


def review_links(
    store: GraphStore,
    status: str,
    *,
    kind: str | None = None,
    reason: str | None = None,
    limit: int = 100,
    cursor: str | None = None,
) -> tuple[list[ReviewLinkRecord], str | None]:
    """One page of the links of `status` (and `kind` on either side, `reason`), and the cursor
    of the next page (None on the last)."""
    after_similarity, after_a, after_b = _position(cursor)
    upper = (1.0 if after_similarity is None else after_similarity) + TOLERANCE

    def work(tx: Tx) -> list[ReviewLinkRecord]:
        """The page from the narrowest band of similarities below `upper` that holds it."""
        width = FIRST_BAND
        while True:
            lower = upper - width
            rows = tx.run(
                "review_links_page",
                status=status,
                kind=kind,
                reason=reason,
                after_similarity=after_similarity,
                after_a=after_a,
                after_b=after_b,
                tolerance=TOLERANCE,
                lower=lower,
                upper=upper,
                limit=limit + 1,
            )
            if len(rows) > limit or lower < 0.0:
                return [ReviewLinkRecord.of(row) for row in rows]
            width *= BAND_GROWTH

    page = store.read(work, use_case="review_links")
    more = len(page) > limit
    page = page[:limit]
    if not more or not page:
        return page, None
    last = page[-1]
    return page, encode_cursor(repr(last.similarity), last.older.view.id, last.newer.view.id)


def _position(cursor: str | None) -> tuple[float | None, str | None, str | None]:
    """The (similarity, older id, newer id) a cursor holds; all None without one."""
    if cursor is None:
        return None, None, None
    similarity, older, newer = decode_cursor(cursor, 3)
    try:
        value = float(similarity)
    except ValueError as error:
        raise InvalidCursor(cursor) from error
    if not math.isfinite(value):  # the databases refuse NaN and infinities as parameters
        raise InvalidCursor(cursor)
    return value, older, newer
