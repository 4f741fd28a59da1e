"""`/review`: the curator's review page, plain files the package ships.

The page is static files (`api/http/review/`: HTML, JavaScript modules, one style sheet), no
build step. They hold no data, so they answer without a token (`PAGE_PATHS`); every read or
write is an API call with the token the curator gives, so the page sees exactly what the API
shows that token. Every answer carries the strict `HEADERS` (CSP, `nosniff`).
"""

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import Response
from starlette.exceptions import HTTPException

PAGE_PATH = "/review"
ASSETS_PATH = "/review/assets"
FILES = Path(__file__).parent / "review"
SCRIPT = "text/javascript; charset=utf-8"
ASSETS = {
    "review.js": SCRIPT,  # the page's entry module, which imports the others
    "common.js": SCRIPT,
    "links.js": SCRIPT,
    "duplicates.js": SCRIPT,
    "review.css": "text/css; charset=utf-8",
}
"""The only files served under `ASSETS_PATH`: a fixed list, so no path reaches the disk."""
PAGE_PATHS = frozenset({PAGE_PATH, *(ASSETS_PATH + "/" + name for name in ASSETS)})
"""The paths that answer without a token: the page's own files, which hold no data."""

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}

router = APIRouter(include_in_schema=False)


def _file(name: str, media_type: str) -> Response:
    """A page file. It answers without a token because a browser cannot send `Authorization`
    when it navigates, and the page must load to ask for the token. `HEADERS` allow only the
    page's own script and style sheet (no inline script, no `eval`, no other site) and refuse
    framing; host checks apply as everywhere."""
    return Response((FILES / name).read_bytes(), media_type=media_type, headers=HEADERS)


@router.get(PAGE_PATH)
async def review_page() -> Response:
    return _file("index.html", "text/html; charset=utf-8")


@router.get(ASSETS_PATH + "/{name}")
async def review_asset(name: str) -> Response:
    media_type = ASSETS.get(name)
    if media_type is None:
        raise HTTPException(404, f"no review page file {name!r}")
    return _file(name, media_type)
