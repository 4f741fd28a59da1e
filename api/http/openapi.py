"""The OpenAPI document as clients read it: camelCase operation ids, and only the statuses each
route declares (`api.http.schemas.errors.errors`).

FastAPI adds a `422` answering `HTTPValidationError` to every operation with a parameter that
does not declare one: the body is not what castlegraph sends (its envelope, design §7), and a
route whose parameters are plain path strings never answers 422 at all. So that default is
taken out; a route that can give 422 declares it, with the envelope.
"""

from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute

FASTAPI_VALIDATION = "#/components/schemas/HTTPValidationError"


def operation_id(route: APIRoute) -> str:
    """`write_drawer` is `writeDrawer`: the name a generated client gives the call."""
    first, *rest = route.name.split("_")
    return first + "".join(word.capitalize() for word in rest)


def install_openapi(app: FastAPI) -> None:
    """Replace `app.openapi` by FastAPI's document without its default 422 answers."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _without_default_422(build())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


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
