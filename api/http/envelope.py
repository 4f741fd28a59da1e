"""The error envelope: `{"error": {"code", "message", "details"}}` on every non-2xx (DESIGN §7).

Turns every error class of every layer, FastAPI's own validation errors and unknown routes into
the same envelope, with the status `api.errors.STATUS_BY_CODE` gives the code.
"""

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.errors import STATUS_BY_CODE, ApiError
from graph.errors import CastlegraphError
from resolver.errors import EmptyLabel

log = logging.getLogger("castlegraph.api")


def envelope(status: int, code: str, message: str, details: Any = None) -> JSONResponse:
    body = {"error": {"code": code, "message": message, "details": details}}
    return JSONResponse(status_code=status, content=body)


def _validation_details(error: RequestValidationError) -> list[dict[str, Any]]:
    return [
        {"loc": list(item.get("loc", ())), "msg": item.get("msg", ""), "type": item.get("type")}
        for item in error.errors()
    ]


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_: Request, error: ApiError) -> JSONResponse:
        return envelope(error.http_status, error.code, error.message, error.details)

    @app.exception_handler(CastlegraphError)
    async def _domain_error(_: Request, error: CastlegraphError) -> JSONResponse:
        status = error.status or STATUS_BY_CODE.get(error.code, 500)
        if status == 500:
            log.error("internal error %s: %s", error.code, error.message)
            return envelope(500, "internal::error", "the service failed; see its log")
        return envelope(status, error.code, error.message, error.details)

    @app.exception_handler(EmptyLabel)
    async def _empty_label(_: Request, error: EmptyLabel) -> JSONResponse:
        return envelope(400, "domain::empty_label", str(error), {"field": error.field})

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        return envelope(422, "input::invalid", "the request is invalid", _validation_details(error))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {
            404: "http::not_found",
            405: "http::method_not_allowed",
            413: "payload::too_large",
        }.get(error.status_code, "http::error")
        return envelope(error.status_code, code, str(error.detail))

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error")
        return envelope(500, "internal::error", "the service failed; see its log")
