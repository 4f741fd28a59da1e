"""`/docs` (Swagger UI) and `/redoc` from files the package ships, not from a CDN: the pages work
on a machine with no internet access. They stay behind the tokens like every route but health
and metrics (`BearerAuth`), their static files included.
"""

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = Path(fastapi_offline.__file__).parent / "static"
"""Swagger UI's and ReDoc's bundles, as `fastapi-offline` ships them."""
STATIC_PATH = "/docs/static"
NO_FAVICON = "data:,"
"""The pages' default favicon is on fastapi.tiangolo.com; an empty one keeps them offline."""


def install_docs(app: FastAPI) -> None:
    """Mount the assets and the two pages on an app built with `docs_url=None, redoc_url=None`."""
    openapi_url = app.openapi_url or "/openapi.json"
    title = f"{app.title} API"
    app.mount(STATIC_PATH, StaticFiles(directory=ASSETS), name="docs-static")

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=title,
            swagger_js_url=f"{STATIC_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{STATIC_PATH}/swagger-ui.css",
            swagger_favicon_url=NO_FAVICON,
            swagger_ui_parameters={"validatorUrl": None},  # else a badge from swagger.io
        )

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url=openapi_url,
            title=title,
            redoc_js_url=f"{STATIC_PATH}/redoc.standalone.js",
            redoc_favicon_url=NO_FAVICON,
            with_google_fonts=False,
        )
