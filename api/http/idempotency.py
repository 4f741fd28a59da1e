"""`Idempotency-Key` on writes: a retry with the same key and body replays the first answer.

A pure ASGI middleware around POST and PUT (`IdempotencyKeys`); another body under the same key
is `409 idempotency::key_reused`. Keys expire after 24 hours.
"""

import contextlib
import hashlib
import logging
from datetime import datetime, timedelta
from typing import Any

from anyio import to_thread
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from castlegraph.api.errors import IdempotencyKeyReused, InvalidInput
from castlegraph.api.http.envelope import error_response
from castlegraph.graph import idempotency
from castlegraph.graph.errors import GraphError
from castlegraph.graph.idempotency import StoredResponse

HEADER = b"idempotency-key"
MAX_KEY_LENGTH = 200
PURGE_EVERY = timedelta(minutes=10)

log = logging.getLogger("castlegraph.api")


class IdempotencyKeys:
    """The request body is fingerprinted with its method and path; a stored answer with the
    same fingerprint is replayed (status and body, with `Idempotent-Replayed: true`). Answers of
    5xx are not stored, so a retry after an outage runs again. Two retries racing each other may
    both run; every castlegraph write is itself replay-safe, so the graph still ends the same.

    Besides the purge at start, a keyed request purges the expired keys when `PURGE_EVERY` has
    passed on the runtime's clock since the last purge, so a service that runs for weeks keeps
    one day of keys, not all of them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._next_purge: datetime | None = None  # the start purged; the first request too

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = dict(scope.get("headers", [])).get(HEADER)
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT") or key is None:
            await self.app(scope, receive, send)
            return
        text = key.decode("latin-1")
        if not text.strip() or len(text) > MAX_KEY_LENGTH:
            response = error_response(InvalidInput("invalid Idempotency-Key header"))
            await response(scope, receive, send)
            return
        caller = scope.get("state", {}).get("caller")
        if caller:
            text = f"{caller}:{text}"
        body = await _read_body(receive)
        fingerprint = hashlib.sha256(
            b"\0".join([scope["method"].encode(), scope["path"].encode(), body])
        ).hexdigest()
        runtime = scope["app"].state.runtime
        now = runtime.clock()
        await self._purge_if_due(runtime, now)
        try:
            stored = await to_thread.run_sync(idempotency.lookup, runtime.store, text, now)
        except GraphError:
            stored = None  # the route itself will answer 503
        if stored is not None:
            await _replay(stored, fingerprint, scope, receive, send)
            return
        captured = await _run(self.app, scope, body)
        if captured.status < 500:
            answer = StoredResponse(fingerprint, captured.status, captured.body.decode())
            # On failure the answer is still correct; only a later replay is lost.
            with contextlib.suppress(GraphError):
                await to_thread.run_sync(
                    idempotency.remember, runtime.store, text, answer, runtime.clock()
                )
        await captured.send(send)

    async def _purge_if_due(self, runtime: Any, now: datetime) -> None:
        if self._next_purge is not None and now < self._next_purge:
            return
        self._next_purge = now + PURGE_EVERY  # before the await: one purge per interval
        try:
            purged = await to_thread.run_sync(idempotency.purge_expired, runtime.store, now)
        except GraphError as error:  # the next interval tries again
            log.warning("idempotency keys not purged: %s", error.log_text())
            return
        if purged:
            log.info("purged %d expired idempotency keys", purged)


async def _read_body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _replay(
    stored: StoredResponse, fingerprint: str, scope: Scope, receive: Receive, send: Send
) -> None:
    if stored.fingerprint != fingerprint:
        response = error_response(
            IdempotencyKeyReused("this Idempotency-Key was used with another request body")
        )
        await response(scope, receive, send)
        return
    await send(
        {
            "type": "http.response.start",
            "status": stored.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"idempotent-replayed", b"true"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": stored.body.encode()})


class _Captured:
    def __init__(self) -> None:
        self.status = 500
        self.headers: list[tuple[bytes, bytes]] = []
        self.body = b""

    async def send(self, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status, "headers": self.headers})
        await send({"type": "http.response.body", "body": self.body})


async def _run(app: ASGIApp, scope: Scope, body: bytes) -> _Captured:
    captured = _Captured()
    delivered = False

    async def replay_receive() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    async def capture(message: Message) -> None:
        if message["type"] == "http.response.start":
            captured.status = message["status"]
            captured.headers = list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            captured.body += message.get("body", b"")

    await app(scope, replay_receive, capture)
    return captured
