"""Errors decided by the API layer itself, and `describe()`, which every door uses to word one.

    CastlegraphError (graph.errors)
    └── ApiError                     an answer the API decided, never a bug
        ├── InvalidInput             input::invalid 400: a check of the routes' own (content)
        │   └── CliInputError        input::invalid 400: a file a command reads is not valid
        ├── InvalidRequest           input::invalid 422: the body breaks the request's schema
        ├── InvalidPath              palace::invalid_path 400: a bad wing/room/agent or mine path
        ├── BlankLabel               domain::empty_label 400: a blank name, in the route's words
        ├── Unauthorized             auth::unauthorized 401
        ├── Forbidden                auth::forbidden 403
        ├── IdempotencyKeyReused     idempotency::key_reused 409
        ├── PayloadTooLarge          payload::too_large 413
        ├── ServiceBusy              service::busy 503 (retryable): heavy reads all running
        ├── ServiceUnreachable       cli::service_unreachable 503: the client found no service
        └── RemoteError              the status and code a service answered (the HTTP client)

    ValueError
    └── UnexportableValue            internal::error 500: a value no Cypher literal carries

Like every `CastlegraphError`, each class carries its `code` and HTTP `status`: the envelope
(`api.http.envelope`), the CLI and the MCP tools all read them from the error, design §7.
"""

from typing import Any, ClassVar

from castlegraph.graph.errors import CastlegraphError
from castlegraph.resolver.errors import ErrorCode

SERVICE_FAILED = "the service failed; see its log"
"""All a caller hears of a bug; what went wrong is in the service's log."""


class ApiError(CastlegraphError):
    """An error the API layer decided, so never a bug: the caller hears its message."""


class InvalidInput(ApiError):
    code = ErrorCode.INPUT_INVALID
    status = 400


class CliInputError(InvalidInput):
    """A file the command reads itself (a checkpoint's JSONL) is not what it should be."""


class InvalidRequest(ApiError):
    """Valid JSON that breaks the request's schema, as FastAPI and the in-process client check it.

    `details` lists each problem as `{"loc", "msg", "type"}`.
    """

    code = ErrorCode.INPUT_INVALID
    status = 422

    def __init__(self, details: list[dict[str, Any]]) -> None:
        super().__init__("the request is invalid", details)


class InvalidPath(ApiError):
    code = ErrorCode.PALACE_INVALID_PATH
    status = 400


class BlankLabel(ApiError):
    """A blank name the route finds itself, worded for the request (`resolver`'s `EmptyLabel`
    says which label, not where in the request it was)."""

    code = ErrorCode.DOMAIN_EMPTY_LABEL
    status = 400


class Unauthorized(ApiError):
    code = ErrorCode.AUTH_UNAUTHORIZED
    status = 401


class Forbidden(ApiError):
    code = ErrorCode.AUTH_FORBIDDEN
    status = 403


class IdempotencyKeyReused(ApiError):
    code = ErrorCode.IDEMPOTENCY_KEY_REUSED
    status = 409


class PayloadTooLarge(ApiError):
    code = ErrorCode.PAYLOAD_TOO_LARGE
    status = 413


class ServiceBusy(ApiError):
    """Too many heavy reads at once (`api.service.heavy_reads`): retrying later will do."""

    code = ErrorCode.SERVICE_BUSY
    status = 503

    def is_retryable(self) -> bool:
        return True


class ServiceUnreachable(ApiError):
    code = ErrorCode.CLI_SERVICE_UNREACHABLE
    status = 503


class RemoteError(ApiError):
    """The error envelope of a service's answer, raised by the HTTP client as the service's own
    error would be raised in-process: its status and code are the answer's."""

    def __init__(self, status: int, code: ErrorCode, message: str, details: Any = None) -> None:
        super().__init__(message, details)
        self.status = status
        self.code = code


class UnexportableValue(ValueError):
    """A property value no Cypher literal can carry (a map, NaN, infinity).

    A `ValueError`, not an answer: neither backend stores such a value, so meeting one in an
    export is a bug and shows its traceback.
    """

    code: ClassVar[ErrorCode] = ErrorCode.INTERNAL_ERROR
    status: ClassVar[int] = 500


def describe(error: CastlegraphError) -> str:
    """The message, plus the details a person needs to act on it (which path, which field)."""
    details = error.details
    if isinstance(details, dict) and details:
        shown = ", ".join(
            f"{k}: {v}"
            for k, v in details.items()
            if not isinstance(v, dict | list) and str(v) not in error.message
        )
        return f"{error.message} ({shown})" if shown else error.message
    if isinstance(details, list) and details:
        return f"{error.message}: " + "; ".join(_detail(item) for item in details[:5])
    return error.message


def _detail(item: Any) -> str:
    if isinstance(item, dict) and "msg" in item:
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        return f"{where}: {item['msg']}" if where else str(item["msg"])
    if isinstance(item, dict):
        return ", ".join(f"{k} {v}" for k, v in item.items())
    return str(item)
