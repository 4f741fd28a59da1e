"""Request and response models of the entity routes (design §5.6, §11): reading, curating and
the resolution dry run. Mentions, posted and listed, are in `api.models.mentions`."""

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, Field

from castlegraph.api.models.common import Label, Strict, examples
from castlegraph.api.models.explain import ExplainOut, WordList
from castlegraph.graph.entities.entity_curation import ReviewCandidate, Settlement
from castlegraph.graph.entities.review_links import ReviewLinkRecord
from castlegraph.graph.records import Entity
from castlegraph.resolver.entity_model import Decision, EntityView, ReviewLink, ReviewReason
from castlegraph.resolver.explain import Explanation

REVIEW_REASONS = ", ".join(f"`{reason}`" for reason in get_args(ReviewReason))
Reason = Annotated[
    str, Field(description=f"Why the pair was proposed for review: one of {REVIEW_REASONS}.")
]


class ResolveQuery(Strict):
    model_config = examples({"name": "ada lovelace", "kind": "person"})

    name: Label
    kind: Label


class AliasCreate(Strict):
    model_config = examples({"alias": "Countess of Lovelace"})

    alias: Label


class ReviewVerdictCreate(Strict):
    model_config = examples({"verdict": "same"}, {"verdict": "different"})

    verdict: Literal["same", "different"]


class CandidatesQuery(Strict):
    """The query of `GET /api/entities/{id}/candidates`, as the in-process client checks it."""

    status: Literal["pending", "settled", "all"] = "pending"


class ReviewLinksQuery(Strict):
    """The query of `GET /api/review-links`, as the in-process client checks it."""

    status: Literal["pending", "same", "different"] = "pending"
    kind: Label | None = None
    reason: Label | None = None
    cursor: str | None = Field(default=None, max_length=400)


class EntitySummaryOut(BaseModel):
    id: str
    name: str
    kind: str
    aliases: list[str]

    @classmethod
    def of(cls, entity: Entity) -> "EntitySummaryOut":
        view = entity.view
        return cls(id=view.id, name=view.name, kind=view.kind, aliases=list(view.aliases))


class EntityOut(EntitySummaryOut):
    key: str
    created_at: str
    same_as: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,  # absent, not null, until settled
        description="Present once settled as the same as this older entity (never merged).",
    )

    @classmethod
    def of(cls, entity: Entity) -> "EntityOut":
        view = entity.view
        return cls(
            id=view.id,
            name=view.name,
            kind=view.kind,
            key=view.key,
            aliases=list(view.aliases),
            created_at=entity.created_at,
            same_as=entity.same_as,
        )


class SettledOut(EntityOut):
    """The older entity of a settled pair; `undone` names the verdict this one reversed."""

    undone: Literal["same"] | None = Field(
        default=None,
        exclude_if=lambda value: value is None,  # absent unless a verdict was undone
        description="Present when `different` undid a `same`: the alias it recorded is gone.",
    )

    @classmethod
    def settled(cls, settlement: Settlement) -> "SettledOut":
        entity = EntityOut.of(settlement.entity).model_dump()
        return cls(**entity, undone=settlement.undone)


class EntityPage(BaseModel):
    entities: list[EntityOut]
    next_cursor: str | None

    @classmethod
    def of(cls, entities: list[Entity], next_cursor: str | None) -> "EntityPage":
        return cls(entities=[EntityOut.of(entity) for entity in entities], next_cursor=next_cursor)


class CandidateOut(BaseModel):
    entity: EntityOut
    side: Literal["older", "newer"]
    similarity: float
    distance: int
    reason: Reason
    status: Literal["pending", "same", "different"]
    created_at: str

    @classmethod
    def of(cls, candidate: ReviewCandidate) -> "CandidateOut":
        return cls(
            entity=EntityOut.of(candidate.entity),
            side=candidate.side,  # type: ignore[arg-type]
            similarity=candidate.similarity,
            distance=candidate.distance,
            reason=candidate.reason,
            status=candidate.status,  # type: ignore[arg-type]
            created_at=candidate.created_at,
        )


class CandidatesOut(BaseModel):
    """`GET /api/entities/{id}/candidates`, in an object: structured content is an object."""

    entity: str
    candidates: list[CandidateOut]


class ReviewLinkListed(BaseModel):
    """A link of `GET /api/review-links`: `a` is the older entity, which `same` gives the
    newer one's name (`b`) as an alias."""

    a: EntityOut
    b: EntityOut
    reason: Reason
    similarity: float
    status: Literal["pending", "same", "different"]
    created_at: str

    @classmethod
    def of(cls, link: ReviewLinkRecord) -> "ReviewLinkListed":
        return cls(
            a=EntityOut.of(link.older),
            b=EntityOut.of(link.newer),
            reason=link.reason,
            similarity=link.similarity,
            status=link.status,  # type: ignore[arg-type]
            created_at=link.created_at,
        )


class ReviewLinkPage(BaseModel):
    links: list[ReviewLinkListed]
    next_cursor: str | None

    @classmethod
    def of(cls, links: list[ReviewLinkRecord], next_cursor: str | None) -> "ReviewLinkPage":
        return cls(links=[ReviewLinkListed.of(link) for link in links], next_cursor=next_cursor)


class ReviewLinkOut(BaseModel):
    entity: EntityOut
    similarity: float
    distance: int
    reason: Reason

    @classmethod
    def of(cls, link: ReviewLink, created_at: Mapping[str, str]) -> "ReviewLinkOut":
        return cls(
            entity=EntityOut.of(_entity(link.entity, created_at)),
            similarity=link.similarity,
            distance=link.distance,
            reason=link.reason,
        )


class ResolveOut(BaseModel):
    decision: Literal["same", "new"]
    rule: str
    confidence: float
    entity: EntityOut | None
    possibly_same_as: list[ReviewLinkOut]
    evidence: dict[str, Any]
    explain: ExplainOut = Field(
        description="Which lists know each word, and why each candidate converged, got a "
        "review link or neither."
    )

    @classmethod
    def of(
        cls,
        decision: Decision,
        created_at: Mapping[str, str],
        explanation: Explanation,
        lists: Sequence[WordList],
    ) -> "ResolveOut":
        entity = decision.entity
        return cls(
            decision=decision.decision,
            rule=decision.rule,
            confidence=decision.confidence,
            entity=EntityOut.of(_entity(entity, created_at)) if entity else None,
            possibly_same_as=[
                ReviewLinkOut.of(link, created_at) for link in decision.possibly_same_as
            ],
            evidence=decision.evidence,
            explain=ExplainOut.of(explanation, lists),
        )


def _entity(view: EntityView, created_at: Mapping[str, str]) -> Entity:
    """A dry run decides on views, not stored records: `created_at` by entity id completes them
    (empty for an entity the run would create)."""
    return Entity(view, created_at.get(view.id, ""))
