"""What a drawer is stored with: its record, and the properties its content derives for the
indexes (hash, fingerprint, length, excerpt, terms).

Apart from the write path because a migration backfills the same properties
(`drawer_index_props`) and a batch stores them too (`drawer_write_props`).
"""

import uuid
from typing import Any

from castlegraph.graph.backends.queries import Dialect
from castlegraph.graph.drawers.drawer_request import NewDrawer
from castlegraph.graph.records import DRAWER_ORIGIN_KEYS, ORIGIN_PREFIX, Drawer
from castlegraph.resolver.drawers import TERMS_SCHEME, DrawerText, index_terms

EXCERPT_LENGTH = 60


def new_drawer_record(
    new: NewDrawer, text: DrawerText, now: str, replaced: Drawer | None
) -> Drawer:
    return Drawer(
        id=new.drawer_id or str(uuid.uuid4()),
        wing=new.wing,
        room=new.room,
        content=new.content,
        content_hash=text.content_hash,
        fingerprint=text.fingerprint,
        norm_len=len(text.normalized),
        kind=new.kind,
        created_at=now,
        name=new.name,
        agent=new.agent,
        source_uri=new.source_uri,
        valid_from=now,
        supersedes=replaced.id if replaced else None,
        origin=dict(new.origin),
    )


def drawer_index_props(wing: str, room: str, content: str, dialect: Dialect) -> dict[str, Any]:
    """The properties derived from a drawer's content (migrations 3 and 4 backfill them)."""
    text = DrawerText.of(content)
    props: dict[str, Any] = {
        "content_hash": text.content_hash,
        "norm_len": len(text.normalized),
        "excerpt": _excerpt(content),
        **_term_props(index_terms(wing, room, text.normalized), dialect),
    }
    if text.fingerprint is not None:
        props["fingerprint"] = text.fingerprint
    return props


def _term_props(terms: list[str], dialect: Dialect) -> dict[str, Any]:
    """The index terms (word pairs and bands) as FalkorDB's array index reads them; Neo4j,
    which cannot index list elements, also gets them as one string for its full-text index
    (FalkorDB does not: the string was a fifth of the cost of a write in a room of 100 k)."""
    props: dict[str, Any] = {"terms": terms, "terms_scheme": TERMS_SCHEME}
    if dialect == "neo4j":
        props["terms_text"] = " ".join(terms)
    return props


STORED_PROPERTIES = frozenset(
    {
        *("id", "wing", "room", "content", "content_hash", "fingerprint", "norm_len", "excerpt"),
        *("kind", "name", "agent", "source_uri", "created_at", "valid_from", "supersedes"),
        *(f"{ORIGIN_PREFIX}{key}" for key in DRAWER_ORIGIN_KEYS),
        *("terms_scheme", "terms_text"),
    }
)
"""The properties a drawer is stored with (`drawer_write_props`), each named in the CREATE of
the statements that create one drawer: FalkorDB makes a statement that creates a node and
sets a node's property pay a cost that grows with the graph (`cypher/create_drawer.cypher`).
Provenance keys are those of mined chunks (`api.service.jobs.mining`)."""


def drawer_write_props(drawer: Drawer, terms: list[str], dialect: Dialect) -> dict[str, Any]:
    """The record's properties and those the indexes read, derived from its content, but its
    index terms themselves: the write statements take them `joined` and split them."""
    props = drawer.to_props()
    props.update(_term_props(terms, dialect))
    del props["terms"]
    props["excerpt"] = _excerpt(drawer.content)  # the caption Neo4j Browser shows
    unknown = props.keys() - STORED_PROPERTIES
    if unknown:  # a new field or provenance key the statements would drop without a word
        raise ValueError(f"no statement stores these drawer properties: {sorted(unknown)}")
    return props


def joined(terms: list[str]) -> str:
    """Index terms as one parameter, split by the statements: FalkorDB's client writes every
    parameter into the query text, quoting and escaping each string, and ~290 term strings a
    write (its probes and what it is stored under) cost it more than the one string they make
    (terms are hex digests: never a space, never empty)."""
    return " ".join(terms)


def _excerpt(content: str) -> str:
    flat = " ".join(content.split())
    return flat if len(flat) <= EXCERPT_LENGTH else flat[: EXCERPT_LENGTH - 1] + "…"
