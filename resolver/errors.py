"""The stable error codes of the whole service, and the errors raised by the pure resolver rules.

Tree::

    ValueError
     └── EmptyLabel      domain::empty_label (400): a name, kind or alias blank once trimmed

`ErrorCode` lives here, in the lowest layer, because every layer raises coded errors and the
resolver may import nothing but the standard library: defined here, the graph layer and every
door of the API use the very same members, and no layer needs an upper one to name a code.
A code is part of the wire format (the HTTP envelope, MCP tool errors, a failed job's record),
so the enum is a `StrEnum`: a member serialises, formats and compares as its string.

Each error class carries its ``code`` and its HTTP ``status``, so the API maps resolver errors
without parsing messages (design §7: ``domain::empty_label`` is a 400).
"""

from __future__ import annotations

import enum
from typing import ClassVar


class ErrorCode(enum.StrEnum):
    """Every code the service reports; a member's name is its code spelled as an identifier."""

    INTERNAL_ERROR = "internal::error"
    INPUT_INVALID = "input::invalid"
    DOMAIN_EMPTY_LABEL = "domain::empty_label"
    PAYLOAD_TOO_LARGE = "payload::too_large"
    AUTH_UNAUTHORIZED = "auth::unauthorized"
    AUTH_FORBIDDEN = "auth::forbidden"
    IDEMPOTENCY_KEY_REUSED = "idempotency::key_reused"
    HTTP_NOT_FOUND = "http::not_found"
    HTTP_METHOD_NOT_ALLOWED = "http::method_not_allowed"
    HTTP_ERROR = "http::error"
    CLI_SERVICE_UNREACHABLE = "cli::service_unreachable"
    SERVICE_BUSY = "service::busy"
    GRAPH_ERROR = "graph::error"
    GRAPH_UNAVAILABLE = "graph::unavailable"
    GRAPH_CONSTRAINT_VIOLATION = "graph::constraint_violation"
    GRAPH_QUERY_FAILED = "graph::query_failed"
    GRAPH_MIGRATION_FAILED = "graph::migration_failed"
    GRAPH_DATA_DIR_IN_USE = "graph::data_dir_in_use"
    GRAPH_UNSUPPORTED_SERVER = "graph::unsupported_server"
    GRAPH_ENTITY_NOT_FOUND = "graph::entity_not_found"
    GRAPH_REVIEW_LINK_NOT_FOUND = "graph::review_link_not_found"
    GRAPH_ALIAS_TAKEN = "graph::alias_taken"
    PALACE_DRAWER_NOT_FOUND = "palace::drawer_not_found"
    PALACE_DRAWER_NAME_TAKEN = "palace::drawer_name_taken"
    PALACE_DRAWER_SUPERSEDED = "palace::drawer_superseded"
    PALACE_INVALID_PATH = "palace::invalid_path"
    JOBS_JOB_NOT_FOUND = "jobs::job_not_found"
    EXPORT_NOT_FOUND = "export::not_found"


class EmptyLabel(ValueError):
    """A label (mention name, kind, alias) is empty or whitespace only.

    ``field`` names which label was blank, so the API can point at it in ``details``.
    """

    code: ClassVar[ErrorCode] = ErrorCode.DOMAIN_EMPTY_LABEL
    status: ClassVar[int] = 400

    def __init__(self, field: str) -> None:
        super().__init__(f"{field} must not be blank")
        self.field = field
