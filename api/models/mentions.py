"""Request and response models of mentions: sightings of an entity's name in a drawer, posted
one at a time or in batches, and listed per entity with their provenance."""

from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    Field,
    StringConstraints,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic_core import PydanticCustomError, to_json

from castlegraph.api.models.common import EXAMPLE_DRAWER, Label, Strict, examples, plain_text
from castlegraph.api.models.entities import EntitySummaryOut
from castlegraph.graph.entities.edge_spellings import MAX_SPELLINGS, edge_spellings
from castlegraph.graph.entities.entity_curation import EntityMention
from castlegraph.graph.records import MentionResult, origin_of

OriginKey = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,63}$")]
MAX_ORIGIN_TEXT = 2048
ORIGIN_VALUE_RULE = (
    "an origin value must be plain text without control characters, at most "
    f"{MAX_ORIGIN_TEXT} characters, or a boolean, a 64-bit integer or a finite number"
)


def _one_origin_error(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """One error in plain words for a bad value, instead of one per member of the union, each
    located by pydantic's name for its validator (`function-after[plain_text(), ...]`)."""
    try:
        return handler(value)
    except ValidationError as error:
        raise PydanticCustomError("origin_value", ORIGIN_VALUE_RULE) from error


OriginValue = Annotated[
    Annotated[str, StringConstraints(max_length=MAX_ORIGIN_TEXT), AfterValidator(plain_text)]
    | bool
    | Annotated[int, Field(ge=-(2**63), lt=2**63)]  # the graph stores 64-bit integers
    | Annotated[float, Field(allow_inf_nan=False)],
    WrapValidator(_one_origin_error),
]
Origin = Annotated[dict[OriginKey, OriginValue], Field(max_length=32)]


EXAMPLE_MENTION = {
    "name": "Ada Lovelace",
    "kind": "person",
    "extractor": "spacy-ner",
    "origin": {"document": "notes/ada.md", "chunk": 3},
    "extracted_at": "2026-12-05T14:00:00Z",
}


class MentionCreate(Strict):
    model_config = examples(EXAMPLE_MENTION, {"name": "Analytical Engine", "kind": "tool"})

    name: Label = Field(description="The name as the extractor saw it (trimmed).")
    kind: Label = Field(description="person, tool, place, ... or `other` when unclassified.")
    extractor: Label | None = None
    origin: Origin = Field(default_factory=dict, description="Provenance: document, chunk, ...")
    job_id: Label | None = None
    extracted_at: Label | None = None


class MentionIn(MentionCreate):
    model_config = examples({"drawer": EXAMPLE_DRAWER, **EXAMPLE_MENTION})

    drawer: Label = Field(description="The id of the drawer the name was seen in.")


class MentionBatchCreate(Strict):
    model_config = examples(
        {
            "mentions": [
                {"drawer": EXAMPLE_DRAWER, **EXAMPLE_MENTION},
                {"drawer": EXAMPLE_DRAWER, "name": "Analytical Engine", "kind": "tool"},
            ]
        }
    )

    mentions: list[MentionIn]


class ObservationOut(BaseModel):
    name: str
    rule: str
    confidence: float


class MentionOut(BaseModel):
    entity: EntitySummaryOut
    created: bool
    linked: bool
    observation: ObservationOut
    possibly_same_as: list[str]

    @classmethod
    def of(cls, result: MentionResult) -> "MentionOut":
        return cls(
            entity=EntitySummaryOut.of(result.entity),
            created=result.created,
            linked=result.linked,
            observation=ObservationOut(
                name=result.observed_name, rule=result.rule, confidence=result.confidence
            ),
            possibly_same_as=list(result.possibly_same_as),
        )


class MentionBatchOut(BaseModel):
    results: list[MentionOut]

    @classmethod
    def of(cls, results: list[MentionResult]) -> "MentionBatchOut":
        return cls(results=[MentionOut.of(result) for result in results])

    @staticmethod
    def json_of(results: list[MentionResult]) -> bytes:
        """The JSON of `of(results)`, byte for byte, without building a model per result: the
        fields are all plain strings, booleans and floats, so the model would only copy them
        (three models per mention cost ~13 ms a batch of 1,000; this, ~3)."""
        return to_json({"results": [_mention_json(result) for result in results]})


def _mention_json(result: MentionResult) -> dict[str, Any]:
    """One result as `MentionOut` dumps it (same fields, same order)."""
    view = result.entity.view
    return {
        "entity": {"id": view.id, "name": view.name, "kind": view.kind, "aliases": view.aliases},
        "created": result.created,
        "linked": result.linked,
        "observation": {
            "name": result.observed_name,
            "rule": result.rule,
            "confidence": float(result.confidence),
        },
        "possibly_same_as": result.possibly_same_as,
    }


class ProvenanceOut(BaseModel):
    extractor: str | None
    origin: dict[str, Any]
    job_id: str | None
    extracted_at: str | None


class EntityMentionOut(BaseModel):
    drawer: str
    observation: ObservationOut = Field(
        description="The drawer's first mention of the entity: its spelling, rule, confidence."
    )
    spellings: list[str] = Field(
        description="Every distinct spelling the drawer's mentions of the entity used, first "
        f"seen first (the observation's first; at most {MAX_SPELLINGS})."
    )
    provenance: ProvenanceOut
    created_at: str

    @classmethod
    def of(cls, mention: EntityMention) -> "EntityMentionOut":
        props = mention.props
        return cls(
            drawer=mention.drawer,
            observation=ObservationOut(
                name=props["name"], rule=props["rule"], confidence=props["confidence"]
            ),
            spellings=edge_spellings(props),
            provenance=ProvenanceOut(
                extractor=props.get("extractor"),
                origin=origin_of(props),
                job_id=props.get("job_id"),
                extracted_at=props.get("extracted_at"),
            ),
            created_at=props["created_at"],
        )
