"""The OpenAPI document as clients read it: camelCase operation ids, only the statuses each
route declares (`api.http.schemas.errors.errors`), and what the middlewares ask of a request.

FastAPI's default `422` (`HTTPValidationError`) is taken out: castlegraph answers in its
envelope (design §7), and a route that can give 422 declares it. Bearer tokens and
`Idempotency-Key` are the middlewares' (`api.http.auth`, `api.http.idempotency`), written in
here: as dependencies, FastAPI solved both on every request (273 Python calls a drawer write).
"""

from collections.abc import Iterable
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.routing import APIRoute

from castlegraph.api.http.idempotency import MAX_KEY_LENGTH

FASTAPI_VALIDATION = "#/components/schemas/HTTPValidationError"
BEARER = "HTTPBearer"
BEARER_SCHEME = {
    "type": "http",
    "description": "One of `CASTLEGRAPH_API_TOKENS`, when set.",
    "scheme": "bearer",
}
_KEY_TEXT = (
    "A retry with the same key and body replays the first answer (`Idempotent-Replayed: true`);"
    " another body with the key is 409."
)
IDEMPOTENT: dict[str, Any] = {
    "parameters": [
        {
            "name": "Idempotency-Key",
            "in": "header",
            "required": False,
            "schema": {
                "anyOf": [{"type": "string", "maxLength": MAX_KEY_LENGTH}, {"type": "null"}],
                "description": _KEY_TEXT,
                "title": "Idempotency-Key",
            },
            "description": _KEY_TEXT,
        }
    ]
}
"""`openapi_extra` of every POST and PUT route: the `IdempotencyKeys` middleware honours the
header on all of them (or refuses it) before any route runs."""


def operation_id(route: APIRoute) -> str:
    """`write_drawer` is `writeDrawer`: the name a generated client gives the call."""
    first, *rest = route.name.split("_")
    return first + "".join(word.capitalize() for word in rest)


def install_openapi(app: FastAPI, tokened: Iterable[APIRouter]) -> None:
    """Replace `app.openapi` by FastAPI's document without its default 422 answers, and with
    bearer auth on the operations of the `tokened` routers (the `BearerAuth` middleware asks
    their callers for a token; read once the routers hold their routes)."""
    build = app.openapi
    routers = list(tokened)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = _without_default_422(build())
            app.openapi_schema = _with_bearer_auth(document, _operations(routers))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _operations(routers: list[APIRouter]) -> set[tuple[str, str]]:
    """(path, method) of every route of these routers, as the document names them."""
    return {
        (route.path, method.lower())
        for router in routers
        for route in router.routes
        if isinstance(route, APIRoute) and route.include_in_schema
        for method in route.methods or ()
    }


def _with_bearer_auth(document: dict[str, Any], tokened: set[tuple[str, str]]) -> dict[str, Any]:
    """The bearer scheme, and each of the `tokened` operations asking for it."""
    components = document.setdefault("components", {})
    components.setdefault("securitySchemes", {})[BEARER] = dict(BEARER_SCHEME)
    for path, operations in document.get("paths", {}).items():
        for method, operation in operations.items():
            if (path, method) in tokened:
                operation["security"] = [{BEARER: []}]
    return document


def _without_default_422(document: dict[str, Any]) -> dict[str, Any]:
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            answer = operation.get("responses", {}).get("422", {})
            schema = answer.get("content", {}).get("application/json", {}).get("schema", {})
            if schema.get("$ref") == FASTAPI_VALIDATION:
                del operation["responses"]["422"]
    schemas = document.get("components", {}).get("schemas", {})
    if FASTAPI_VALIDATION.rsplit("/", 1)[1] not in str(document.get("paths")):
        schemas.pop("HTTPValidationError", None)
        schemas.pop("ValidationError", None)
    return document
