"""The root of every error castlegraph raises, the core's stable codes, and the resolver's error.

The root lives here, in the lowest layer, because the resolver may import nothing but the
standard library: every layer derives from it and names its codes without needing an upper one
(the graph layer's errors are in `graph.errors`, the doors' in `api.errors`). How a door shows
an error (a status, a tool error, an exit code) is the door's own table; nothing here knows a
transport.
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar


# A code is part of the wire format (an error envelope, an MCP tool error, a failed job's record),
# so this is a `StrEnum`: a member serialises, formats and compares as its string. It holds the
# core's codes; the doors' own (tokens, transport, limits) are `api.errors.DoorCode`. Its
# docstring is also `api.errors.WireCode`'s, the OpenAPI description of every code.
class ErrorCode(enum.StrEnum):
    """Every code the service reports; a member's name is its code spelled as an identifier."""

    INTERNAL_ERROR = "internal::error"
    INPUT_INVALID = "input::invalid"
    DOMAIN_EMPTY_LABEL = "domain::empty_label"
    SERVICE_BUSY = "service::busy"
    GRAPH_ERROR = "graph::error"
    GRAPH_UNAVAILABLE = "graph::unavailable"
    GRAPH_CONSTRAINT_VIOLATION = "graph::constraint_violation"
    GRAPH_QUERY_FAILED = "graph::query_failed"
    GRAPH_MIGRATION_FAILED = "graph::migration_failed"
    GRAPH_DATA_DIR_IN_USE = "graph::data_dir_in_use"
    GRAPH_UNSUPPORTED_SERVER = "graph::unsupported_server"
    GRAPH_MISCONFIGURED = "graph::misconfigured"
    GRAPH_ENTITY_NOT_FOUND = "graph::entity_not_found"
    GRAPH_REVIEW_LINK_NOT_FOUND = "graph::review_link_not_found"
    GRAPH_ALIAS_TAKEN = "graph::alias_taken"
    PALACE_DRAWER_NOT_FOUND = "palace::drawer_not_found"
    PALACE_DRAWER_NAME_TAKEN = "palace::drawer_name_taken"
    PALACE_DRAWER_SUPERSEDED = "palace::drawer_superseded"
    PALACE_INVALID_PATH = "palace::invalid_path"
    JOBS_JOB_NOT_FOUND = "jobs::job_not_found"
    EXPORT_NOT_FOUND = "export::not_found"


class CastlegraphError(Exception):
    """An error of castlegraph's: its `code`, a `message` in castlegraph's own words, and
    `details` a caller can act on. Unless a class says otherwise it is a bug.

    An error is either an answer to the caller (`bug` False: the doors show its code, message
    and details) or the service's fault (`bug` True: the doors log it and tell the caller only
    that the service failed).

        CastlegraphError         internal::error, a bug: code, message, details, bug, is_retryable()
        ├── EmptyLabel           domain::empty_label: a name, kind or alias blank once trimmed
        ├── graph.errors.*       the database and the use cases' refusals
        └── api.errors.*         what the doors decide themselves (ApiError) and UnexportableValue
    """

    code: enum.StrEnum = ErrorCode.INTERNAL_ERROR
    bug: ClassVar[bool] = True
    """The service's fault: logged with its cause, never shown to the caller."""

    def __init__(self, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def is_retryable(self) -> bool:
        """Whether the same request may succeed later (the database back, a queue shorter)."""
        return False

    def log_text(self) -> str:
        """The message and, for the log only, the driver error it translates."""
        cause = self.__cause__
        return f"{self.message} ({cause})" if cause is not None else self.message


class EmptyLabel(CastlegraphError):
    """A label (mention name, kind, alias) is empty or whitespace only.

    ``field`` names which label was blank; ``details`` points at it (``{"field": ...}`` unless
    the caller, a route, says where in its request it was).
    """

    code = ErrorCode.DOMAIN_EMPTY_LABEL
    bug = False

    def __init__(self, field: str, message: str | None = None, details: Any = None) -> None:
        super().__init__(
            message or f"{field} must not be blank",
            {"field": field} if details is None else details,
        )
        self.field = field
