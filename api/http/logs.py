"""The service's logs: JSON lines for machines, plain lines for people, a request id in both.

`configure_logging` is called once by `castlegraph serve`: JSON by default when stderr is not a
terminal (a container, systemd, a file), readable text on a terminal, `--log-format` to choose.

`RequestLog` is a pure ASGI middleware. It takes the caller's `X-Request-Id` when it is sane (1
to 128 characters of letters, digits and `._:-`; anything else could forge log lines) or makes
one, returns it in the response header, and holds it in a context variable for the request:
`RequestIdFilter` copies it into every record logged meanwhile, in route threads too (Starlette
runs sync routes with a copy of the context). Then one access line per request: method, path,
status and duration. Never the query string, a header, or a body: they carry tokens and
personal data, and the route template in the metrics tells the rest.
"""

import enum
import json as jsonlib
import logging
import re
import sys
import time
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID_HEADER = "X-Request-Id"
request_id: ContextVar[str | None] = ContextVar("castlegraph_request_id", default=None)
access_log = logging.getLogger("castlegraph.access")
_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_RECORD_FIELDS = frozenset(vars(logging.makeLogRecord({}))) | {
    "message",
    "asctime",
    "color_message",  # uvicorn's copy of the message with terminal colours
}


class LogFormat(enum.StrEnum):
    json = "json"
    text = "text"


def use_json(choice: LogFormat | None) -> bool:
    """The chosen format, else JSON unless stderr is a terminal."""
    return choice is LogFormat.json if choice is not None else not sys.stderr.isatty()


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request_id, then any `extra`."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", None)
        if rid is not None:
            entry["request_id"] = rid
        entry.update(
            (name, value)
            for name, value in vars(record).items()
            if name not in _RECORD_FIELDS and name != "request_id"
        )
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return jsonlib.dumps(entry, ensure_ascii=False, default=str)


_LINE_BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""Characters that would end or forge a line of the text log (`%0A` in a requested path)."""


def _one_line(text: str) -> str:
    return _LINE_BREAKING.sub(lambda found: found.group().encode("unicode_escape").decode(), text)


class TextFormatter(logging.Formatter):
    """One line per record: control characters in the message are written as escapes, so a
    client cannot forge a log line; a traceback, written by the service itself, stays whole."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(request)s %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802  # logging's name
        record.message = _one_line(record.message)
        return super().formatMessage(record)

    def format(self, record: logging.LogRecord) -> str:
        rid = getattr(record, "request_id", None)
        record.request = f" [{rid}]" if rid else ""
        return super().format(record)


def configure_logging(json: bool, level: int | str = logging.INFO) -> None:
    """Send every logger's records to stderr in one format, with the request id."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter() if json else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)


class RequestLog:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers", [])).get(REQUEST_ID_HEADER.lower().encode(), b"")
        rid = given.decode("latin-1")
        if not _SANE_ID.fullmatch(rid):
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
