"""The `Host` allow-list on every route (design §8.1): a defence against DNS rebinding.

Any `Host` that is not the service's own name or address (`ApiSettings.own_hosts`) is refused
with `403 auth::forbidden`, naming `CASTLEGRAPH_ALLOWED_HOSTS`, on every route and before tokens
are looked at; `HostAllowList` says why.
"""

from starlette.types import ASGIApp, Receive, Scope, Send

from castlegraph.api.errors import Forbidden, InvalidInput
from castlegraph.api.http.envelope import error_response
from castlegraph.api.service.settings import host_name

ALLOWED_HOSTS_ENV = "CASTLEGRAPH_ALLOWED_HOSTS"


def requested_host(header: str) -> str:
    """The name in a `Host` header, without its port (`[::1]:8765` -> `::1`)."""
    if header.startswith("["):
        return host_name(header.partition("]")[0])
    return host_name(header.rpartition(":")[0] if ":" in header else header)


class HostAllowList:
    """A web page on another site can point its own DNS name at 127.0.0.1 and have the victim's
    browser call the service; the browser then sends that site's name as `Host`. Refusing any
    other `Host` than the service's own (loopback, the listen address, `api.allowed_hosts`)
    stops it on every route: `/api/health`, `/metrics`, `/docs` and `/mcp` included. A request
    without `Host` is refused too; one with two is `400 input::invalid` (as HTTP/1.1 requires):
    the app would judge one of them and the MCP SDK read the other, so one allowed name could
    carry in another."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):  # lifespan
            await self.app(scope, receive, send)
            return
        given = [value.decode("latin-1") for name, value in scope["headers"] if name == b"host"]
        if len(given) > 1:
            twice = InvalidInput("a request carries one Host header", details={"hosts": given})
            await error_response(twice)(scope, receive, send)
            return
        raw = given[0] if given else ""
        if raw and requested_host(raw) in self.hosts:
            await self.app(scope, receive, send)
            return
        refused = Forbidden(
            f"Host {raw!r} is not a name of this service; add it to {ALLOWED_HOSTS_ENV} "
            "(api.allowed_hosts) if it is",
            details={"host": raw},
        )
        await error_response(refused)(scope, receive, send)
