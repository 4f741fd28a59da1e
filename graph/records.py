"""Plain records returned by the use cases, and the one mapping between each record and the flat
properties the graph stores: `from_props` reads a node, `to_props` gives what a write stores.

Both directions live here so a property is named once: a writer that built its own dict could
store an entity that resolution reads differently, or never finds (the index keys).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from castlegraph.graph.backends.entity_key_params import index_props
from castlegraph.graph.backends.queries import Dialect
from castlegraph.resolver.entity_model import EntityView

ORIGIN_PREFIX = "origin_"
"""Provenance maps are stored flat, one `origin_<key>` property per key: graph properties hold
no maps."""


def origin_props(origin: Mapping[str, Any]) -> dict[str, Any]:
    """A provenance map as the flat properties that store it."""
    return {f"{ORIGIN_PREFIX}{key}": value for key, value in origin.items()}


def origin_of(props: Mapping[str, Any]) -> dict[str, Any]:
    """The provenance map stored in `props` (a drawer's or a MENTIONS edge's)."""
    return {
        key.removeprefix(ORIGIN_PREFIX): value
        for key, value in props.items()
        if key.startswith(ORIGIN_PREFIX) and value is not None
    }


DRAWER_ORIGIN_KEYS = ("document", "chunk", "revision", "root")
"""The provenance keys a drawer may carry: those of mined chunks (`api.service.jobs.mining`)."""


@dataclass(frozen=True, slots=True)
class Drawer:
    id: str
    wing: str
    room: str
    content: str
    content_hash: str
    fingerprint: str | None
    norm_len: int
    kind: str
    created_at: str
    name: str | None = None
    agent: str | None = None
    source_uri: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None
    supersedes: str | None = None
    origin: dict[str, Any] = field(default_factory=dict)
    """Provenance (document, chunk, revision, ...), stored flat as `origin_*` properties."""

    @classmethod
    def from_props(cls, props: dict[str, Any]) -> "Drawer":
        return cls(
            id=props["id"],
            wing=props["wing"],
            room=props["room"],
            content=props["content"],
            content_hash=props["content_hash"],
            fingerprint=props.get("fingerprint"),
            norm_len=int(props.get("norm_len") or 0),
            kind=props.get("kind") or "manual",
            created_at=props["created_at"],
            name=props.get("name"),
            agent=props.get("agent"),
            source_uri=props.get("source_uri"),
            valid_from=props.get("valid_from"),
            valid_to=props.get("valid_to"),
            supersedes=props.get("supersedes"),
            origin=origin_of(props),
        )

    def to_props(self) -> dict[str, Any]:
        """The stored properties, without nulls (neither backend stores null properties).

        The properties derived from the content for the indexes (anchor terms, excerpt) are
        not part of the record: `graph.drawers.palace` adds them.
        """
        props = {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name != "origin" and getattr(self, f.name) is not None
        }
        props.update(origin_props(self.origin))
        return props

    @property
    def is_current(self) -> bool:
        return self.valid_to is None


DRAWER_RECORD_PROPERTIES = (
    *(f.name for f in fields(Drawer) if f.name != "origin"),
    *(f"{ORIGIN_PREFIX}{key}" for key in DRAWER_ORIGIN_KEYS),
)
"""What `Drawer.from_props` reads, and so what the statements that read a drawer whole name in
their projection: `d {.*, embedding: null}` would have the database read the vector and the
term lists off the store before dropping them."""


@dataclass(frozen=True, slots=True)
class SimilarDrawer:
    """One SIMILAR_TO edge seen from a drawer: `side` says which of the two is older."""

    drawer: str
    side: str
    kind: str
    similarity: float
    same_hash: bool
    same_fingerprint: bool
    threshold: float
    created_at: str


@dataclass(frozen=True, slots=True)
class WriteOutcome:
    created: bool
    drawer: Drawer
    similar: list[SimilarDrawer]
    superseded: str | None = None


@dataclass(frozen=True, slots=True)
class Entity:
    """A stored entity: what the rules see (`view`) plus when it was created."""

    view: EntityView
    created_at: str
    same_as: str | None = None
    """Set when a person settled this entity as the same as an older one (design §11): it is
    kept, never merged, but no longer a candidate, so its spellings converge on the older."""

    @classmethod
    def from_props(cls, props: dict[str, Any]) -> "Entity":
        view = EntityView(
            id=props["id"],
            name=props["name"],
            kind=props["kind"],
            key=props["key"],
            aliases=tuple(props.get("aliases") or ()),
            alias_keys=tuple(props.get("alias_keys") or ()),
        )
        return cls(view, props.get("created_at", ""), props.get("same_as"))

    def to_props(
        self, dialect: Dialect, *, cached: bool = False, keys: bool = True
    ) -> dict[str, Any]:
        """Every stored property, the candidate-index keys included unless `keys` is false
        (`spelling_props`)."""
        view = self.view
        spellings = spelling_props(view, dialect, cached=cached, keys=keys)
        props: dict[str, Any] = {
            "id": view.id,
            "name": view.name,
            "kind": view.kind,
            "key": view.key,
            "created_at": self.created_at,
            **{name: value for name, value in spellings.items() if value is not None},
        }
        if self.same_as is not None:
            props["same_as"] = self.same_as
        return props


def spelling_props(
    view: EntityView, dialect: Dialect, *, cached: bool = False, keys: bool = True
) -> dict[str, Any]:
    """The properties that change when an entity gains a spelling: its aliases, their keys and
    the index keys derived from all its spellings (`resolver.entity_search_keys`), written together
    so the index never lags behind the spellings. `cached` where the keys were just derived for the
    same spellings (resolution: `resolver.entity_search_keys.spelling_keys` has them); `keys` false
    where the store keeps none (`GraphStore.stores_entity_keys`): the index keys are null, so the
    keys of the former spellings go."""
    return {
        "aliases": list(view.aliases),
        "alias_keys": list(view.alias_keys),
        **index_props(view, dialect, cached=cached, stored=keys),
    }


@dataclass(frozen=True, slots=True)
class MentionResult:
    """The answer for one mention of a batch, in the order it was posted."""

    entity: Entity
    created: bool
    linked: bool
    observed_name: str
    rule: str
    confidence: float
    possibly_same_as: tuple[str, ...]
    evidence: dict[str, Any]
