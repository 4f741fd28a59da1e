"""What `GET /api/health` answers (design §8.1): the status to anyone, the rest with a token."""

from typing import Literal

from pydantic import BaseModel, Field, RootModel

from castlegraph.api.http.schemas.errors import ErrorEnvelope


class HealthStatusOut(BaseModel):
    status: Literal["ok", "starting", "unavailable"]


class HealthOut(HealthStatusOut):
    """A stranger, when tokens are configured, gets only `status`."""

    backend: str | None = Field(default=None, description="With a valid token only.")
    entity_index: str | None = Field(
        default=None, description="`off`, or the in-memory index's state (with a token only)."
    )
    drawer_index: str | None = Field(
        default=None, description="`off`, or the in-memory index's state (with a token only)."
    )
    core: Literal["native", "python"] | None = Field(
        default=None,
        description="The core the rules run on: the compiled one or the pure-Python one "
        "(setting `dedup.core`, with a token only).",
    )
    core_version: str | None = Field(
        default=None, description="That core's version (with a token only)."
    )


class HealthUnavailableOut(RootModel[HealthStatusOut | ErrorEnvelope]):
    """A 503: the bare status to a stranger, the error envelope to a caller with a token."""
