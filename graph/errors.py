"""Errors raised by the graph layer, each with its stable `code` and its HTTP `status`.

    CastlegraphError                 internal::error 500    code, status, message, details
    ├── GraphError                   graph::error 500
    │   ├── GraphUnavailable         graph::unavailable 503 (retryable): unreachable, busy, timeout
    │   ├── ConstraintViolation      graph::constraint_violation 409 (retryable): a concurrent write
    │   ├── GraphQueryError          graph::query_failed 500: a refused statement is a bug
    │   ├── MigrationFailed          graph::migration_failed 503
    │   └── UnsupportedServer        graph::unsupported_server 503: a Neo4j older than 5.23
    ├── DataDirInUse                 graph::data_dir_in_use 500: another service owns the directory
    ├── DrawerNotFound               palace::drawer_not_found 404
    ├── DrawerNameTaken              palace::drawer_name_taken 409
    ├── DrawerSuperseded             palace::drawer_superseded 409
    ├── EntityNotFound               graph::entity_not_found 404
    ├── ReviewLinkNotFound           graph::review_link_not_found 404
    ├── AliasTaken                   graph::alias_taken 409: the spelling is another entity's
    ├── JobNotFound                  jobs::job_not_found 404
    ├── TooManyJobs                  service::busy 429 (retryable): the caller's queue is full
    ├── NothingToExport              export::not_found 404 (the CLI's export only)
    ├── InvalidCursor                input::invalid 400: a page cursor this service never returned
    ├── InvalidVector                input::invalid 422: an embedding the index cannot hold
    ├── SelfVerdict                  input::invalid 422: a verdict pairing a drawer with itself
    └── UnknownDrawers               input::invalid 422: mentions of drawers that do not exist

Every door reads `status` from the error itself: the HTTP envelope answers with it, and a
status of 500 marks a bug whose message stays in the log. `input::invalid` is a 400 for what
the routes check themselves and a 422 where the body was valid by schema but not by content.
The API layer's own errors (`api.errors`) grow this tree; the codes are `resolver.errors`'.

Driver errors (redis, neo4j) are translated once, at the store boundary, into these. The
driver's own text names hosts, ports and query fragments, so the translated error's message is
castlegraph's own words and the driver error stays its `__cause__`, which `log_text` adds for
the log only (design §7: never a raw database message to the client). A retryable error is
answered with `Retry-After: RETRY_AFTER_SECONDS`.
"""

from typing import Any

from castlegraph.resolver.errors import ErrorCode

CONFLICT = "a concurrent write claimed the same unique key; retry the request"
RETRY_AFTER_SECONDS = 2
"""What a retryable answer tells the client to wait: the runtime's own reconnect interval."""


class CastlegraphError(Exception):
    code: ErrorCode = ErrorCode.INTERNAL_ERROR
    status: int = 500

    def __init__(self, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def is_retryable(self) -> bool:
        return False

    def log_text(self) -> str:
        """The message and, for the log only, the driver error it translates."""
        cause = self.__cause__
        return f"{self.message} ({cause})" if cause is not None else self.message


class GraphError(CastlegraphError):
    code = ErrorCode.GRAPH_ERROR


class GraphUnavailable(GraphError):
    code = ErrorCode.GRAPH_UNAVAILABLE
    status = 503

    def is_retryable(self) -> bool:
        return True


class ConstraintViolation(GraphError):
    """Two writers raced for one unique key (a MERGE's check saw neither): a conflict the
    caller settles by retrying, when its write finds the other's node and converges."""

    code = ErrorCode.GRAPH_CONSTRAINT_VIOLATION
    status = 409

    def is_retryable(self) -> bool:
        return True


class GraphQueryError(GraphError):
    code = ErrorCode.GRAPH_QUERY_FAILED


class UnindexedSearch(GraphError):
    """A candidate search sent to the database while the service's memory serves that index
    and the database keeps none (design §5.4): answered, it would read every node of the label
    until the query timed out. A caller that should have passed the in-memory index did not, a
    bug of castlegraph's and never the client's: refused at once (500 `internal::error`)."""


class MigrationFailed(GraphError):
    code = ErrorCode.GRAPH_MIGRATION_FAILED
    status = 503

    def is_retryable(self) -> bool:
        """As retryable as what stopped it: a database still starting, not a bad statement."""
        cause = self.__cause__
        return isinstance(cause, CastlegraphError) and cause.is_retryable()


class UnsupportedServer(GraphError):
    """The database server is a version castlegraph's statements do not run on (a Neo4j
    older than 5.23): refused at start, naming the version found and the one needed, instead of
    a statement refused later as a bug. Not retryable: waiting does not upgrade the server."""

    code = ErrorCode.GRAPH_UNSUPPORTED_SERVER
    status = 503


class DataDirInUse(CastlegraphError):
    code = ErrorCode.GRAPH_DATA_DIR_IN_USE


class DrawerNotFound(CastlegraphError):
    code = ErrorCode.PALACE_DRAWER_NOT_FOUND
    status = 404

    def __init__(self, drawer_id: str) -> None:
        super().__init__(f"no drawer with id {drawer_id!r}", {"drawer": drawer_id})


class DrawerNameTaken(CastlegraphError):
    code = ErrorCode.PALACE_DRAWER_NAME_TAKEN
    status = 409

    def __init__(self, wing: str, room: str, name: str, holder: str | None) -> None:
        """`holder` None: the holder is another agent's diary entry, whose id is not shown."""
        details = {"wing": wing, "room": room, "name": name}
        super().__init__(
            f"the name {name!r} is held by another current drawer of {wing}/{room}",
            details if holder is None else details | {"drawer": holder},
        )


class DrawerSuperseded(CastlegraphError):
    code = ErrorCode.PALACE_DRAWER_SUPERSEDED
    status = 409

    def __init__(
        self, drawer_id: str, successor: str | None, refused: str = "superseded again"
    ) -> None:
        """`refused`: what a superseded drawer cannot be (superseded again, judged)."""
        super().__init__(
            f"drawer {drawer_id!r} was superseded and cannot be {refused}",
            {"drawer": drawer_id, "superseded_by": successor},
        )


class EntityNotFound(CastlegraphError):
    code = ErrorCode.GRAPH_ENTITY_NOT_FOUND
    status = 404

    def __init__(self, entity_id: str) -> None:
        super().__init__(f"no entity with id {entity_id!r}", {"entity": entity_id})


class ReviewLinkNotFound(CastlegraphError):
    code = ErrorCode.GRAPH_REVIEW_LINK_NOT_FOUND
    status = 404

    def __init__(self, entity_id: str, other_id: str) -> None:
        super().__init__(
            "the two entities have no POSSIBLY_SAME_AS link",
            {"entity": entity_id, "other": other_id},
        )


class AliasTaken(CastlegraphError):
    """An alias whose key is another compatible entity's name or alias key (design §11):
    recording it would make two entities answer one spelling, which only the review verdict
    `same` may settle."""

    code = ErrorCode.GRAPH_ALIAS_TAKEN
    status = 409

    def __init__(self, alias: str, entity_id: str, holder: str) -> None:
        super().__init__(
            f"{alias!r} is a spelling of another entity; settle the pair with the verdict "
            "`same` instead",
            {"entity": holder, "alias": alias, "target": entity_id},
        )


class JobNotFound(CastlegraphError):
    code = ErrorCode.JOBS_JOB_NOT_FOUND
    status = 404

    def __init__(self, job_id: str) -> None:
        super().__init__(f"no job with id {job_id!r}", {"job": job_id})


class TooManyJobs(CastlegraphError):
    """The caller has `api.max_queued_jobs` jobs queued or running (design §8.1): a new one
    waits until one of those ends, so it is retryable."""

    code = ErrorCode.SERVICE_BUSY
    status = 429

    def __init__(self, queued: int, limit: int) -> None:
        super().__init__(
            f"{queued} jobs of this caller are already queued or running (at most {limit}, "
            "api.max_queued_jobs); retry once one has ended",
            {"queued": queued, "max_queued_jobs": limit},
        )

    def is_retryable(self) -> bool:
        return True


class NothingToExport(CastlegraphError):
    """No entity or room by that name: the export has nothing to write."""

    code = ErrorCode.EXPORT_NOT_FOUND
    status = 404


class InvalidCursor(CastlegraphError):
    """A page cursor that does not decode: only the cursors a page returned are accepted."""

    code = ErrorCode.INPUT_INVALID
    status = 400

    def __init__(self, cursor: str) -> None:
        super().__init__("the cursor is not one this service returned", {"cursor": cursor})


class InvalidVector(CastlegraphError):
    """Checked before the write: FalkorDB would silently accept a vector of another length."""

    code = ErrorCode.INPUT_INVALID
    status = 422


class SelfVerdict(CastlegraphError):
    """Both sides of a verdict are one drawer (the same id, or names that find it): a drawer is
    never a duplicate of itself, and the edge would be a loop."""

    code = ErrorCode.INPUT_INVALID
    status = 422

    def __init__(self, drawer_id: str) -> None:
        super().__init__(
            f"a verdict needs two drawers; a and b are both drawer {drawer_id!r}",
            {"drawer": drawer_id},
        )


class UnknownDrawers(CastlegraphError):
    """A mention batch is refused whole; `details` lists each mention whose drawer is missing."""

    code = ErrorCode.INPUT_INVALID
    status = 422

    def __init__(self, indexes: dict[int, str]) -> None:
        super().__init__(
            "mentions refer to drawers that do not exist",
            [
                {"index": i, "drawer": d, "error": ErrorCode.PALACE_DRAWER_NOT_FOUND}
                for i, d in indexes.items()
            ],
        )
