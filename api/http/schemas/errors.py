"""The error envelope in the OpenAPI document, so that clients and the schema fuzz know every
status an operation may answer with and the body it then carries (design §7)."""

from typing import Any

from pydantic import BaseModel, Field

from resolver.errors import ErrorCode


class ErrorBody(BaseModel):
    code: ErrorCode = Field(description="Stable, machine-readable: `area::reason`.")
    message: str
    details: Any = None


class ErrorEnvelope(BaseModel):
    error: ErrorBody


def _answer(description: str) -> dict[str, Any]:
    return {"model": ErrorEnvelope, "description": description}


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: _answer("Bad input: an empty label or content, a bad cursor, wing, room or key."),
    401: _answer("A token is configured and the request carries no valid one."),
    403: _answer("Forbidden: an agent token outside its diary, or a `Host` not the service's."),
    404: _answer("No drawer, entity, review link or job with that id."),
    409: _answer("A name taken, a drawer superseded, an `Idempotency-Key` reused."),
    413: _answer("Content, body or batch over its limit."),
    422: _answer("The request does not match the schema, or names unknown drawers."),
    503: _answer("The database is unavailable; retry later."),
}
"""What any route may answer besides its own success: the middleware (host, token, body size,
idempotency) and the error classes of every layer apply to every route."""
