"""The error envelope in the OpenAPI document, so that clients and the schema fuzz know every
status an operation may answer with and the body it then carries (design §7)."""

from typing import Any

from pydantic import BaseModel, Field

from castlegraph.api.errors import WireCode


class ErrorBody(BaseModel):
    code: WireCode = Field(description="Stable, machine-readable: `area::reason`.")
    message: str
    details: Any = None


class ErrorEnvelope(BaseModel):
    error: ErrorBody


ERROR_DESCRIPTIONS: dict[int, str] = {
    400: "Bad input: an empty label or content, a bad id, cursor, wing, room or `Idempotency-Key`.",
    401: "A token is configured and the request carries no valid one.",
    403: "Forbidden: an agent token outside its diary, a `Host` or `Origin` not the service's.",
    404: "No drawer, entity, review link or job with that id.",
    409: "A name taken, a drawer superseded, an `Idempotency-Key` reused, a lost race.",
    413: "Content, body or batch over its limit.",
    422: "The request does not match the schema, or names unknown drawers.",
    429: "The caller already has `api.max_queued_jobs` jobs queued or running; retry later.",
    503: "The database is unavailable or busy; retry later.",
}
"""The one table of error answers; each route lists the statuses it can give (`errors`)."""

TOKEN = (401, 403, 503)
"""Any route behind the token: no valid token, a foreign `Host`, the database unavailable."""
BY_ID = (400, 404)
"""A route naming a drawer, entity or job in its path: a malformed id, or none by that id."""
WRITE = (400, 409, 413, 422)
"""A POST or PUT with a body: a bad `Idempotency-Key` or a reused one, a body over the limit,
a body that does not match the schema."""


def errors(*groups: int | tuple[int, ...]) -> dict[int | str, dict[str, Any]]:
    """The `responses=` of a route: the envelope under each status it can give, so that the
    OpenAPI document promises no status a route never answers (design §7)."""
    statuses = sorted({s for g in groups for s in (g if isinstance(g, tuple) else (g,))})
    return {
        status: {"model": ErrorEnvelope, "description": ERROR_DESCRIPTIONS[status]}
        for status in statuses
    }
