"""Errors decided by the API layer, and the HTTP status of every stable error code (DESIGN §7).

Errors below `api/` carry their own stable `code`; `STATUS_BY_CODE` maps codes to statuses for
every door (HTTP envelope, CLI, MCP tools). The envelope itself lives in `api.http.envelope`.
"""

from typing import Any

from graph.errors import CastlegraphError

STATUS_BY_CODE: dict[str, int] = {
    "palace::drawer_not_found": 404,
    "graph::entity_not_found": 404,
    "graph::review_link_not_found": 404,
    "jobs::job_not_found": 404,
    "input::invalid": 400,
    "domain::empty_label": 400,
    "palace::invalid_path": 400,
    "auth::unauthorized": 401,
    "auth::forbidden": 403,
    "palace::drawer_name_taken": 409,
    "palace::drawer_superseded": 409,
    "idempotency::key_reused": 409,
    "payload::too_large": 413,
    "graph::unavailable": 503,
    "graph::migration_failed": 503,
}


class ApiError(CastlegraphError):
    """An error decided by the API layer itself, with an explicit status."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(message, details)
        self.http_status = status
        self.code = code  # type: ignore[misc]  # an instance value shadows the class default


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
