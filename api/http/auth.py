"""Bearer tokens (`CASTLEGRAPH_API_TOKENS`): required on every route but health, `/metrics` and
the review page's static files when set (design §8.1).

A valid token presented on those open paths still identifies the caller: health shows a
stranger only its status. The token grammar is `api.service.tokens`; an agent token makes
that agent the caller's identity for the diary. Secrets never reach the logs (`SecretStr`).
"""

import hashlib
import hmac

from starlette.types import ASGIApp, Receive, Scope, Send

from castlegraph.api.errors import Unauthorized
from castlegraph.api.http.envelope import error_response
from castlegraph.api.http.review_page import PAGE_PATHS
from castlegraph.api.service.tokens import Token

OPEN_PATHS = frozenset({"/api/health", "/metrics", *PAGE_PATHS})
"""Health, metrics and the review page's own files (which hold no data: its API calls need
a token like any other)."""


class BearerAuth:
    """Each configured token is `SECRET`, `AGENT:SECRET` or `:SECRET`; one that names an agent
    can write and read only that agent's diary entries. Tokens are compared in constant time,
    and every configured token is compared, so timing tells nothing."""

    def __init__(self, app: ASGIApp, tokens: list[str]) -> None:
        self.app = app
        self.tokens = [Token.parse(raw) for raw in tokens]

    def _match(self, presented: bytes) -> Token | None:
        found = None
        for token in self.tokens:  # no early exit: the same work for every caller
            if hmac.compare_digest(token.secret, presented):
                found = token
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        if not self.tokens:
            state["identified"] = True  # no tokens: every caller may see everything
            await self.app(scope, receive, send)
            return
        header = dict(scope.get("headers", [])).get(b"authorization", b"")
        scheme, _, presented = header.partition(b" ")
        token = self._match(presented.strip()) if scheme.lower() == b"bearer" else None
        if token is not None:
            state["identified"] = True
            state["agent"] = token.agent
            # Idempotency keys are kept per caller, so two clients cannot replay each other.
            state["caller"] = hashlib.sha256(token.secret).hexdigest()[:16]
        elif scope["path"] not in OPEN_PATHS:
            response = error_response(Unauthorized("a valid bearer token is required"))
            response.headers["WWW-Authenticate"] = "Bearer"
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def caller_identified(state: object) -> bool:
    """Whether the caller showed a valid token, or none is configured (`request.state`): on the
    open paths, what a stranger may not see (design §8.1) needs it."""
    return bool(getattr(state, "identified", False))
