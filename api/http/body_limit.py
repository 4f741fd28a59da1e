"""Refuse request bodies over the configured size with `413 payload::too_large`.

A pure ASGI middleware (`BodySizeLimit`) that counts bytes as they arrive, so an oversized
body is refused without being held in memory first, Content-Length or not.
"""

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from castlegraph.api.errors import PayloadTooLarge
from castlegraph.api.http.envelope import error_response


class _BodyTooLarge(HTTPException):
    """This middleware's own refusal, told apart from any other HTTP error raised inside."""


class BodySizeLimit:
    """Past the limit it raises an HTTP 413: read by a route, the error handlers turn it into
    the envelope; read by a middleware inside this one (`Idempotency-Key` reads the whole body
    first), it would reach no handler and be a 500, so this middleware answers the envelope
    itself when nothing has been sent yet."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            response = error_response(PayloadTooLarge(self._message, {"max_bytes": self.max_bytes}))
            await response(scope, receive, send)
            return
        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise _BodyTooLarge(413, self._message)
            return message

        started = False

        async def watching_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except _BodyTooLarge:
            if started:
                raise
            response = error_response(PayloadTooLarge(self._message, {"max_bytes": self.max_bytes}))
            await response(scope, receive, send)

    @property
    def _message(self) -> str:
        return f"the request body is over {self.max_bytes} bytes"
