"""Request and response models of the drawer routes (design §4, §11).

Requests forbid unknown fields. Lengths that DESIGN names are checked here (422); checks that
answer with other statuses (empty content 400, content over 1 MiB 413) live in `api.service.limits`.
"""

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, StringConstraints

from castlegraph.api.models.common import Label, Strict, examples, plain_text
from castlegraph.graph.records import Drawer, SimilarDrawer, WriteOutcome

SourceUri = Annotated[str, StringConstraints(max_length=2048), AfterValidator(plain_text)]
"""Where a drawer came from: text like a label (FalkorDB ends a string at a NUL), longer."""

DrawerKind = Literal["manual", "note", "diary", "checkpoint", "file", "other"]


class DrawerCreate(Strict):
    model_config = examples(
        {"content": "Ada Lovelace wrote the first program for the Analytical Engine."},
        {
            "content": "Standup: we move the ingest job to the new queue on Monday.",
            "name": "standup-2026-12-05",
            "kind": "note",
            "source_uri": "file:///notes/standup.md",
        },
    )

    content: str = Field(description="Verbatim text of the memory; never rewritten.")
    name: Label | None = Field(
        default=None, description="Identity of the drawer among the current drawers of its room."
    )
    kind: DrawerKind = "manual"
    agent: Label | None = None
    source_uri: SourceUri | None = None
    supersede: bool = Field(
        default=False, description="Replace the current drawer holding `name` instead of a 409."
    )


class DiaryCreate(Strict):
    agent: Label
    content: str
    wing: Label = "diary"


class DrawerUpdate(Strict):
    content: str


class RoomPageQuery(Strict):
    """The query of `GET /api/wings/{wing}/rooms/{room}/drawers`, as the in-process client
    checks it."""

    limit: int = Field(default=100, ge=1, le=1000)
    cursor: str | None = Field(default=None, max_length=1000)


MAX_SEARCH_WORDS = 8


def search_words(text: str) -> list[str]:
    """The distinct words of a search, in order; a blank search or one of more than
    `MAX_SEARCH_WORDS` words is refused."""
    words = list(dict.fromkeys(text.lower().split()))
    if not words:
        raise ValueError("the search holds no word")
    if len(words) > MAX_SEARCH_WORDS:
        raise ValueError(f"a search holds at most {MAX_SEARCH_WORDS} words")
    return words


class DrawerSearchQuery(Strict):
    """The query of `GET /api/wings/{wing}/rooms/{room}/search`."""

    q: Annotated[str, StringConstraints(min_length=1, max_length=200), AfterValidator(plain_text)]
    limit: int = Field(default=20, ge=1, le=100)


class DrawerOut(BaseModel):
    id: str
    wing: str
    room: str
    name: str | None
    content: str
    content_hash: str
    fingerprint: str | None
    norm_len: int
    kind: str
    agent: str | None
    source_uri: str | None
    valid_from: str | None
    valid_to: str | None
    supersedes: str | None
    created_at: str
    origin: dict[str, Any]

    @classmethod
    def of(cls, drawer: Drawer) -> "DrawerOut":
        return cls.model_validate(drawer, from_attributes=True)


class SignalsOut(BaseModel):
    same_hash: bool
    same_fingerprint: bool
    similarity: float
    threshold: float


class SimilarOut(BaseModel):
    drawer: str
    side: Literal["older", "newer"]
    kind: Literal["exact", "normalized", "near"]
    similarity: float
    signals: SignalsOut
    created_at: str

    @classmethod
    def of(cls, entry: SimilarDrawer) -> "SimilarOut":
        return cls(
            drawer=entry.drawer,
            side=entry.side,  # type: ignore[arg-type]
            kind=entry.kind,  # type: ignore[arg-type]
            similarity=entry.similarity,
            signals=SignalsOut(
                same_hash=entry.same_hash,
                same_fingerprint=entry.same_fingerprint,
                similarity=entry.similarity,
                threshold=entry.threshold,
            ),
            created_at=entry.created_at,
        )


class DrawerWriteOut(BaseModel):
    created: bool
    drawer: DrawerOut
    similar: list[SimilarOut]
    superseded: str | None = None

    @classmethod
    def of(cls, outcome: WriteOutcome) -> "DrawerWriteOut":
        return cls(
            created=outcome.created,
            drawer=DrawerOut.of(outcome.drawer),
            similar=[SimilarOut.of(entry) for entry in outcome.similar],
            superseded=outcome.superseded,
        )


class DrawerDuplicatesOut(BaseModel):
    drawer: str
    similar: list[SimilarOut]

    @classmethod
    def of(cls, drawer_id: str, entries: list[SimilarDrawer]) -> "DrawerDuplicatesOut":
        return cls(drawer=drawer_id, similar=[SimilarOut.of(entry) for entry in entries])


class DrawerPage(BaseModel):
    drawers: list[DrawerOut]
    next_cursor: str | None

    @classmethod
    def of(cls, drawers: list[Drawer], next_cursor: str | None) -> "DrawerPage":
        return cls(drawers=[DrawerOut.of(drawer) for drawer in drawers], next_cursor=next_cursor)


class DrawerSearchOut(BaseModel):
    drawers: list[DrawerOut]
    more: bool = Field(description="More drawers matched than `limit`: ask with more words.")

    @classmethod
    def of(cls, drawers: list[Drawer], more: bool) -> "DrawerSearchOut":
        return cls(drawers=[DrawerOut.of(drawer) for drawer in drawers], more=more)
