"""The HTTP door's table: which status each error class is answered with (design §7).

`STATUS_BY_ERROR` by class; a bug finds nothing before the root, 500, and the envelope hides
its words. A retryable error carries `Retry-After: RETRY_AFTER_SECONDS`.
"""

from castlegraph.api.errors import (
    Forbidden,
    IdempotencyKeyReused,
    InvalidInput,
    InvalidPath,
    InvalidRequest,
    PayloadTooLarge,
    ServiceBusy,
    ServiceUnreachable,
    Unauthorized,
)
from castlegraph.graph.errors import (
    AliasTaken,
    ConstraintViolation,
    DrawerNameTaken,
    DrawerNotFound,
    DrawerSuperseded,
    EntityNotFound,
    GraphUnavailable,
    InvalidCursor,
    InvalidVector,
    JobNotFound,
    MigrationFailed,
    NothingToExport,
    ReviewLinkNotFound,
    SelfVerdict,
    TooManyJobs,
    UnknownDrawers,
    UnsupportedServer,
)
from castlegraph.resolver.errors import CastlegraphError, EmptyLabel

RETRY_AFTER_SECONDS = 2
"""What a retryable answer tells the client to wait: the runtime's own reconnect interval."""

STATUS_BY_ERROR: dict[type[CastlegraphError], int] = {
    CastlegraphError: 500,
    EmptyLabel: 400,
    InvalidInput: 400,
    InvalidCursor: 400,
    InvalidPath: 400,
    Unauthorized: 401,
    Forbidden: 403,
    DrawerNotFound: 404,
    EntityNotFound: 404,
    ReviewLinkNotFound: 404,
    JobNotFound: 404,
    NothingToExport: 404,
    ConstraintViolation: 409,
    DrawerNameTaken: 409,
    DrawerSuperseded: 409,
    AliasTaken: 409,
    IdempotencyKeyReused: 409,
    PayloadTooLarge: 413,
    InvalidRequest: 422,
    InvalidVector: 422,
    SelfVerdict: 422,
    UnknownDrawers: 422,
    TooManyJobs: 429,
    GraphUnavailable: 503,
    MigrationFailed: 503,
    UnsupportedServer: 503,
    ServiceBusy: 503,
    ServiceUnreachable: 503,
}


def http_status(kind: type[CastlegraphError]) -> int:
    """The status errors of this class are answered with: the nearest class of its MRO listed.

    So a subclass may answer otherwise than its parent and one code may have two statuses:
    `input::invalid` is a 400 for what the routes check themselves (`InvalidInput`,
    `InvalidCursor`) and a 422 where the body was valid by schema but not by content
    (`InvalidRequest`, `InvalidVector`, `SelfVerdict`, `UnknownDrawers`)."""
    return next(STATUS_BY_ERROR[c] for c in kind.__mro__ if c in STATUS_BY_ERROR)


def retry_after(error: CastlegraphError) -> dict[str, str] | None:
    """The `Retry-After` header a retryable error's answer carries; None for any other."""
    return {"Retry-After": str(RETRY_AFTER_SECONDS)} if error.is_retryable() else None
