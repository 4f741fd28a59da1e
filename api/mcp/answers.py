"""What the write tools answer: the essentials an agent acts on, the HTTP answer on request.

A write over HTTP answers the whole stored drawer (content, hashes, fingerprint) and every
similarity signal; an agent needs the id, whether it was stored, and which drawers it
resembles. The tools answer that, and put the route's whole answer under `detail` only when
called with `full`, so a model's context is not filled with hashes it never reads.
"""

from typing import Literal

from pydantic import BaseModel, Field

from castlegraph.api.client.protocol import Json
from castlegraph.api.models.drawers import DrawerWriteOut
from castlegraph.api.models.mentions import MentionBatchOut


def _absent(value: object) -> bool:
    return value is None


class SimilarBrief(BaseModel):
    drawer: str
    kind: Literal["exact", "normalized", "near"]
    similarity: float
    side: Literal["older", "newer"]


class DrawerWritten(BaseModel):
    id: str
    created: bool
    similar: list[SimilarBrief]
    superseded: str | None = Field(
        default=None, exclude_if=_absent, description="The drawer this version replaced."
    )
    detail: DrawerWriteOut | None = Field(
        default=None, exclude_if=_absent, description="The HTTP answer, when asked (`full`)."
    )

    @classmethod
    def of(cls, answer: Json, full: bool) -> "DrawerWritten":
        written = DrawerWriteOut.model_validate(answer)
        return cls(
            id=written.drawer.id,
            created=written.created,
            similar=[
                SimilarBrief(drawer=s.drawer, kind=s.kind, similarity=s.similarity, side=s.side)
                for s in written.similar
            ],
            superseded=written.superseded,
            detail=written if full else None,
        )


class DrawerDeleted(BaseModel):
    deleted: str


class MentionBrief(BaseModel):
    entity: str
    name: str = Field(description="The entity's canonical name.")
    rule: str = Field(description="How the mention resolved: exact, normalized, alias, typo, new.")
    created: bool = Field(description="True when this mention created the entity.")
    possibly_same_as: list[str] = Field(description="Entities it may be: review with review_links.")


class MentionsPosted(BaseModel):
    results: list[MentionBrief]
    detail: MentionBatchOut | None = Field(
        default=None, exclude_if=_absent, description="The HTTP answer, when asked (`full`)."
    )

    @classmethod
    def of(cls, answer: Json, full: bool) -> "MentionsPosted":
        posted = MentionBatchOut.model_validate(answer)
        return cls(
            results=[
                MentionBrief(
                    entity=r.entity.id,
                    name=r.entity.name,
                    rule=r.observation.rule,
                    created=r.created,
                    possibly_same_as=r.possibly_same_as,
                )
                for r in posted.results
            ],
            detail=posted if full else None,
        )
