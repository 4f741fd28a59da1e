"""Request and response models of the drawer routes (DESIGN §4, §11).

Requests forbid unknown fields. Lengths that DESIGN names are checked here (422); checks that
answer with other statuses (empty content 400, content over 1 MiB 413) live in `api.http.limits`.
"""

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from graph.records import Drawer, SimilarDrawer, WriteOutcome

MAX_LABEL = 200


NOT_LABEL_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
"""Unicode's control characters (Cc) but tab, line feed and carriage return, and lone
surrogates (Cs): one regular-expression scan, not a category lookup per character."""


def plain_text(value: str) -> str:
    """Labels are text: no control characters but whitespace, no lone surrogates."""
    if NOT_LABEL_TEXT.search(value):
        raise ValueError("must not contain control characters or lone surrogates")
    return value


Label = Annotated[str, StringConstraints(max_length=MAX_LABEL), AfterValidator(plain_text)]
DrawerKind = Literal["manual", "note", "diary", "checkpoint", "file", "other"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DrawerCreate(Strict):
    content: str = Field(description="Verbatim text of the memory; never rewritten.")
    name: Label | None = Field(
        default=None, description="Identity of the drawer among the current drawers of its room."
    )
    kind: DrawerKind = "manual"
    agent: Label | None = None
    source_uri: Annotated[str, StringConstraints(max_length=2048)] | None = None
    supersede: bool = Field(
        default=False, description="Replace the current drawer holding `name` instead of a 409."
    )


class DiaryCreate(Strict):
    agent: Label
    content: str
    wing: Label = "diary"


class DrawerReplace(Strict):
    content: str


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


class Signals(BaseModel):
    same_hash: bool
    same_fingerprint: bool
    similarity: float
    threshold: float


class SimilarOut(BaseModel):
    drawer: str
    side: Literal["older", "newer"]
    kind: Literal["exact", "normalized", "near"]
    similarity: float
    signals: Signals
    created_at: str

    @classmethod
    def of(cls, entry: SimilarDrawer) -> "SimilarOut":
        return cls(
            drawer=entry.drawer,
            side=entry.side,  # type: ignore[arg-type]
            kind=entry.kind,  # type: ignore[arg-type]
            similarity=entry.similarity,
            signals=Signals(
                same_hash=entry.same_hash,
                same_fingerprint=entry.same_fingerprint,
                similarity=entry.similarity,
                threshold=entry.threshold,
            ),
            created_at=entry.created_at,
        )


class WriteResponse(BaseModel):
    created: bool
    drawer: DrawerOut
    similar: list[SimilarOut]
    superseded: str | None = None

    @classmethod
    def of(cls, outcome: WriteOutcome) -> "WriteResponse":
        return cls(
            created=outcome.created,
            drawer=DrawerOut.of(outcome.drawer),
            similar=[SimilarOut.of(entry) for entry in outcome.similar],
            superseded=outcome.superseded,
        )


class DuplicatesResponse(BaseModel):
    drawer: str
    similar: list[SimilarOut]


class RoomPage(BaseModel):
    drawers: list[DrawerOut]
    next_cursor: str | None


class Health(BaseModel):
    status: Literal["ok", "starting", "unavailable"]
    backend: str
    migrations: int
