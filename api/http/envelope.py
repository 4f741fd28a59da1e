"""The error envelope: `{"error": {"code", "message", "details"}}` on every non-2xx (design §7).

Turns every error class of every layer, FastAPI's own validation errors and unknown routes into
the same envelope, with the status `api.http.statuses` gives its class. A bug (the error's
`bug`) is a 500 whose words stay in the log: the caller hears only that the service failed. A
retryable error (the database unreachable or busy, a write that lost a race) carries
`Retry-After`.
"""

import logging
from enum import StrEnum
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from castlegraph.api.errors import SERVICE_FAILED, DoorCode, InvalidRequest
from castlegraph.api.http.statuses import http_status, retry_after
from castlegraph.resolver.errors import CastlegraphError, ErrorCode

log = logging.getLogger("castlegraph.api")

CODE_BY_HTTP_STATUS = {
    404: DoorCode.HTTP_NOT_FOUND,
    405: DoorCode.HTTP_METHOD_NOT_ALLOWED,
    413: DoorCode.PAYLOAD_TOO_LARGE,
}
"""Starlette's own refusals (no route, wrong method, a body cut off past the limit)."""


def envelope(
    status: int,
    code: StrEnum,
    message: str,
    details: Any = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body = {"error": {"code": code, "message": message, "details": details}}
    return JSONResponse(status_code=status, content=body, headers=headers)


def error_response(error: CastlegraphError) -> JSONResponse:
    """The envelope of an error, for the middlewares, which answer before the handlers run."""
    status = http_status(type(error))
    return envelope(status, error.code, error.message, error.details, retry_after(error))


def _validation_details(error: RequestValidationError) -> list[dict[str, Any]]:
    return [
        {"loc": list(item.get("loc", ())), "msg": item.get("msg", ""), "type": item.get("type")}
        for item in error.errors()
    ]


NOT_AN_OBJECT = frozenset({"dict_type", "model_attributes_type"})
"""What pydantic says of a body that is no JSON object: also what a JSON body sent without a
JSON content type becomes, since FastAPI then hands the model the raw bytes."""


def _content_type_hint(details: list[dict[str, Any]], content_type: str | None) -> None:
    """Says which header to send when the body was refused because it was not read as JSON:
    `curl -d` sends a form's content type, and pydantic's words alone do not point there."""
    if content_type is not None and _is_json(content_type):
        return
    said = f"`{content_type}`" if content_type else "no Content-Type"
    for detail in details:
        if detail["loc"] == ["body"] and detail["type"] in NOT_AN_OBJECT:
            detail["msg"] += (
                f"; the body was not read as JSON (the request sent {said}): "
                "send it with `Content-Type: application/json`"
            )


def _is_json(content_type: str) -> bool:
    media_type = content_type.split(";", 1)[0].strip().lower()
    return media_type == "application/json" or (
        media_type.startswith("application/") and media_type.endswith("+json")
    )


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(CastlegraphError)
    async def _domain_error(_: Request, error: CastlegraphError) -> JSONResponse:
        if error.bug:
            log.error("internal error %s: %s", error.code, error.log_text())
            return envelope(500, ErrorCode.INTERNAL_ERROR, SERVICE_FAILED)
        if error.__cause__ is not None and http_status(type(error)) >= 500:
            log.warning("%s: %s", error.code, error.log_text())  # the driver's words: log only
        return error_response(error)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        details = _validation_details(error)
        _content_type_hint(details, request.headers.get("content-type"))
        return error_response(InvalidRequest(details))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, error: StarletteHTTPException) -> JSONResponse:
        code = CODE_BY_HTTP_STATUS.get(error.status_code, DoorCode.HTTP_ERROR)
        return envelope(error.status_code, code, str(error.detail))

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error")
        return envelope(500, ErrorCode.INTERNAL_ERROR, SERVICE_FAILED)
