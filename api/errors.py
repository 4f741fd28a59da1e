"""Errors decided by the API layer itself, the doors' own codes, and `describe()`, which every
door uses to word an error.

`ApiError` draws its subtree. A blank label is the resolver's `EmptyLabel` wherever it is found.
The doors' tables say what each error becomes: `api.http.statuses` (status, `Retry-After`),
`api.mcp.errors` (tool error), `api.cli.options` (exit code). `DoorCode` holds the codes only a
door raises; `WireCode` is every code a client may meet, the one enum the envelope's schema lists.
"""

import enum
from typing import TYPE_CHECKING, Any

from castlegraph.resolver.errors import CastlegraphError, ErrorCode


class DoorCode(enum.StrEnum):
    """The codes of the doors' own refusals, which no core layer raises: transport, tokens,
    request limits, the CLI's client."""

    PAYLOAD_TOO_LARGE = "payload::too_large"
    AUTH_UNAUTHORIZED = "auth::unauthorized"
    AUTH_FORBIDDEN = "auth::forbidden"
    IDEMPOTENCY_KEY_REUSED = "idempotency::key_reused"
    HTTP_NOT_FOUND = "http::not_found"
    HTTP_METHOD_NOT_ALLOWED = "http::method_not_allowed"
    HTTP_ERROR = "http::error"
    CLI_SERVICE_UNREACHABLE = "cli::service_unreachable"


def _wire_codes() -> list[tuple[str, str]]:
    """The core's codes and the doors', in the order the OpenAPI document has always listed
    them (the doors' came after `domain::empty_label` when one enum held them all)."""
    core = [(code.name, code.value) for code in ErrorCode]
    cut = [name for name, _ in core].index(ErrorCode.DOMAIN_EMPTY_LABEL.name) + 1
    return [*core[:cut], *((code.name, code.value) for code in DoorCode), *core[cut:]]


if TYPE_CHECKING:  # mypy cannot follow an enum built from a computed list: any StrEnum to it
    WireCode = enum.StrEnum
else:
    WireCode = enum.StrEnum("ErrorCode", _wire_codes())
    WireCode.__doc__ = ErrorCode.__doc__
"""Every code a client may meet, core or door; named `ErrorCode` in the OpenAPI document."""

SERVICE_FAILED = "the service failed; see its log"
"""All a caller hears of a bug; what went wrong is in the service's log."""


class ApiError(CastlegraphError):
    """An error the API layer decided, so never a bug: the caller hears its message.

    ApiError (under resolver's CastlegraphError; `UnexportableValue` is beside it, a bug)
    ├── InvalidInput             input::invalid: a check of the routes' own (content)
    │   └── CliInputError        input::invalid: a file a command reads is not valid
    ├── InvalidRequest           input::invalid: the body breaks the request's schema
    ├── InvalidPath              palace::invalid_path: a bad wing/room/agent or mine path
    ├── Unauthorized             auth::unauthorized
    ├── Forbidden                auth::forbidden
    ├── IdempotencyKeyReused     idempotency::key_reused
    ├── PayloadTooLarge          payload::too_large
    ├── ServiceBusy              service::busy (retryable): heavy reads all running
    ├── ServiceUnreachable       cli::service_unreachable: the client found no service
    └── RemoteError              (api.client.http) the code a service answered with
    """

    bug = False


class InvalidInput(ApiError):
    code = ErrorCode.INPUT_INVALID


class CliInputError(InvalidInput):
    """A file the command reads itself (a checkpoint's JSONL) is not what it should be."""


class InvalidRequest(ApiError):
    """Valid JSON that breaks the request's schema, as FastAPI and the in-process client check it.

    `details` lists each problem as `{"loc", "msg", "type"}`.
    """

    code = ErrorCode.INPUT_INVALID

    def __init__(self, details: list[dict[str, Any]]) -> None:
        super().__init__("the request is invalid", details)


class InvalidPath(ApiError):
    code = ErrorCode.PALACE_INVALID_PATH


class Unauthorized(ApiError):
    code = DoorCode.AUTH_UNAUTHORIZED


class Forbidden(ApiError):
    code = DoorCode.AUTH_FORBIDDEN


class IdempotencyKeyReused(ApiError):
    code = DoorCode.IDEMPOTENCY_KEY_REUSED


class PayloadTooLarge(ApiError):
    code = DoorCode.PAYLOAD_TOO_LARGE


class ServiceBusy(ApiError):
    """Too many heavy reads at once (`api.service.heavy_reads`): retrying later will do."""

    code = ErrorCode.SERVICE_BUSY

    def is_retryable(self) -> bool:
        return True


class ServiceUnreachable(ApiError):
    code = DoorCode.CLI_SERVICE_UNREACHABLE


class UnexportableValue(CastlegraphError):
    """A property value no Cypher literal can carry (a map, NaN, infinity).

    A bug, not an answer: neither backend stores such a value, so meeting one in an export
    means castlegraph wrote what it should have refused.
    """


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
