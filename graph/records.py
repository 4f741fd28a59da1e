"""Plain records returned by the use cases, mapped from the flat properties the graph stores."""

from dataclasses import dataclass, field
from typing import Any

from resolver.entity_model import EntityView


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
            norm_len=int(props.get("norm_len", 0)),
            kind=props.get("kind", "manual"),
            created_at=props["created_at"],
            name=props.get("name"),
            agent=props.get("agent"),
            source_uri=props.get("source_uri"),
            valid_from=props.get("valid_from"),
            valid_to=props.get("valid_to"),
            supersedes=props.get("supersedes"),
            origin={
                k.removeprefix("origin_"): v for k, v in props.items() if k.startswith("origin_")
            },
        )

    @property
    def is_current(self) -> bool:
        return self.valid_to is None


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
    """Set when a person settled this entity as the same as an older one (DESIGN §11): it is
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
