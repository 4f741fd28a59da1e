"""The `Origin` check on state-changing requests (design §8.1): a defence against cross-site
requests.

A `POST`, `PUT`, `PATCH` or `DELETE` from a browser page of another site is refused with
`403 auth::forbidden`, naming `CASTLEGRAPH_ALLOWED_ORIGINS`, on every route, `/mcp` included;
`OriginCheck` says which origins pass.
"""

from starlette.types import ASGIApp, Receive, Scope, Send

from castlegraph.api.errors import Forbidden
from castlegraph.api.http.envelope import error_response
from castlegraph.api.service.settings import origin_key

ALLOWED_ORIGINS_ENV = "CASTLEGRAPH_ALLOWED_ORIGINS"
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class OriginCheck:
    """A page on another site can make the victim's browser POST to the service (a form, or
    `fetch` in `no-cors` mode) even when it cannot read the answer; the browser then says where
    the page came from in `Origin`. A state-changing request passes when its `Origin` is the
    request's own origin (its scheme and the `Host` it was sent to, which `api.http.hosts` has
    already allowed) or one of `api.allowed_origins`. Requests without `Origin` (curl, the SDKs,
    the CLI) are not browsers' and pass."""

    def __init__(self, app: ASGIApp, allowed: list[str]) -> None:
        self.app = app
        self.allowed = {key for key in map(origin_key, allowed) if key is not None}

    def _accepts(self, origin: str, scope: Scope, host: str) -> bool:
        key = origin_key(origin)
        own = origin_key(f"{scope['scheme']}://{host}")
        return key is not None and (key == own or key in self.allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in STATE_CHANGING:
            await self.app(scope, receive, send)
            return
        headers = scope["headers"]
        host = next((value.decode("latin-1") for name, value in headers if name == b"host"), "")
        origins = [value.decode("latin-1") for name, value in headers if name == b"origin"]
        refused = [origin for origin in origins if not self._accepts(origin, scope, host)]
        if not refused:
            await self.app(scope, receive, send)
            return
        error = Forbidden(
            f"Origin {refused[0]!r} is not this service's own; add it to {ALLOWED_ORIGINS_ENV} "
            "(api.allowed_origins) if its pages may change data here",
            details={"origin": refused[0]},
        )
        await error_response(error)(scope, receive, send)
