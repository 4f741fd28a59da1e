"""Request and response models of the entity routes (DESIGN §5.6, §11)."""

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    Field,
    SerializerFunctionWrapHandler,
    StringConstraints,
    model_serializer,
)

from api.http.schemas.drawers import Label, Strict, plain_text
from graph.entity_curation import EntityMention, ReviewCandidate
from graph.records import Entity, MentionResult

OriginKey = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,63}$")]
OriginValue = (
    Annotated[str, StringConstraints(max_length=2048), AfterValidator(plain_text)]
    | bool
    | Annotated[int, Field(ge=-(2**63), lt=2**63)]  # the graph stores 64-bit integers
    | Annotated[float, Field(allow_inf_nan=False)]
)
Origin = Annotated[dict[OriginKey, OriginValue], Field(max_length=32)]


class MentionFields(Strict):
    name: Label = Field(description="The name as the extractor saw it (trimmed).")
    kind: Label = Field(description="person, tool, place, ... or `other` when unclassified.")
    extractor: Label | None = None
    origin: Origin = Field(default_factory=dict, description="Provenance: document, chunk, ...")
    job_id: Label | None = None
    extracted_at: Label | None = None


class MentionIn(MentionFields):
    drawer: Label


class MentionBatch(Strict):
    mentions: list[MentionIn]


class ResolveRequest(Strict):
    name: Label
    kind: Label


class AliasRequest(Strict):
    alias: Label


class ReviewVerdict(Strict):
    verdict: Literal["same", "different"]


class EntitySummary(BaseModel):
    id: str
    name: str
    kind: str
    aliases: list[str]

    @classmethod
    def of(cls, entity: Entity) -> "EntitySummary":
        view = entity.view
        return cls(id=view.id, name=view.name, kind=view.kind, aliases=list(view.aliases))


class EntityOut(EntitySummary):
    key: str
    created_at: str
    same_as: str | None = Field(
        default=None,
        description="Present once settled as the same as this older entity (never merged).",
    )

    @model_serializer(mode="wrap")
    def _omit_unsettled(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("same_as") is None:
            data.pop("same_as", None)
        return data

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


class Observation(BaseModel):
    name: str
    rule: str
    confidence: float


class MentionOut(BaseModel):
    entity: EntitySummary
    created: bool
    linked: bool
    observation: Observation
    possibly_same_as: list[str]

    @classmethod
    def of(cls, result: MentionResult) -> "MentionOut":
        return cls(
            entity=EntitySummary.of(result.entity),
            created=result.created,
            linked=result.linked,
            observation=Observation(
                name=result.observed_name, rule=result.rule, confidence=result.confidence
            ),
            possibly_same_as=list(result.possibly_same_as),
        )


class MentionResults(BaseModel):
    results: list[MentionOut]


class EntityList(BaseModel):
    entities: list[EntityOut]
    next_cursor: str | None


class Provenance(BaseModel):
    extractor: str | None
    origin: dict[str, Any]
    job_id: str | None
    extracted_at: str | None


class EntityMentionOut(BaseModel):
    drawer: str
    observation: Observation
    provenance: Provenance
    created_at: str

    @classmethod
    def of(cls, mention: EntityMention) -> "EntityMentionOut":
        props = mention.props
        origin = {k.removeprefix("origin_"): v for k, v in props.items() if k.startswith("origin_")}
        return cls(
            drawer=mention.drawer,
            observation=Observation(
                name=props["name"], rule=props["rule"], confidence=props["confidence"]
            ),
            provenance=Provenance(
                extractor=props.get("extractor"),
                origin=origin,
                job_id=props.get("job_id"),
                extracted_at=props.get("extracted_at"),
            ),
            created_at=props["created_at"],
        )


class CandidateOut(BaseModel):
    entity: EntityOut
    side: Literal["older", "newer"]
    similarity: float
    distance: int
    reason: str
    created_at: str

    @classmethod
    def of(cls, candidate: ReviewCandidate) -> "CandidateOut":
        return cls(
            entity=EntityOut.of(candidate.entity),
            side=candidate.side,  # type: ignore[arg-type]
            similarity=candidate.similarity,
            distance=candidate.distance,
            reason=candidate.reason,
            created_at=candidate.created_at,
        )


class ReviewLinkOut(BaseModel):
    entity: EntityOut
    similarity: float
    distance: int
    reason: str


class ResolveOut(BaseModel):
    decision: Literal["same", "new"]
    rule: str
    confidence: float
    entity: EntityOut | None
    possibly_same_as: list[ReviewLinkOut]
    evidence: dict[str, Any]
