"""`RequestLog`, a pure ASGI middleware: a request id for every request, one access line each.

It takes the caller's `X-Request-Id` when it is sane (1 to 128 characters of letters, digits and
`._:-`; anything else could forge log lines) or makes one, returns it in the response header,
and holds it in `request_id` for the request, which the log filter reads. Then one access line
per request: method, path, status and duration. Never the query string, a header, or a body:
they carry tokens and personal data, and the route template in the metrics tells the rest.
"""

import time
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from castlegraph.api.service.logs import REQUEST_ID_HEADER, SANE_ID, access_log, request_id


class RequestLog:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers", [])).get(REQUEST_ID_HEADER.lower().encode(), b"")
        rid = given.decode("latin-1")
        if not SANE_ID.fullmatch(rid):
            rid = uuid.uuid4().hex
        token = request_id.set(rid)
        status = 500  # unless a response starts: an exception escaped to the server
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", rid.encode("ascii")))
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            milliseconds = round((time.perf_counter() - started) * 1000, 1)
            access_log.info(
                "%s %s %d %.1f ms",
                scope["method"],
                scope["path"],
                status,
                milliseconds,
                extra={
                    "method": scope["method"],
                    "path": scope["path"],
                    "status": status,
                    "duration_ms": milliseconds,
                },
            )
        # Reset only on success: an exception goes on to the server's handler, which logs it
        # with this id still set (the request runs in its own task, so nothing leaks).
        request_id.reset(token)
