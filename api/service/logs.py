"""The service's logs: JSON lines for machines, plain lines for people, a request id in both.

`configure_logging` is called once by `castlegraph serve`: JSON by default when stderr is not a
terminal (a container, systemd, a file), readable text on a terminal, `--log-format` to choose.
"""

import enum
import json as jsonlib
import logging
import re
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

REQUEST_ID_HEADER = "X-Request-Id"
request_id: ContextVar[str | None] = ContextVar("castlegraph_request_id", default=None)
access_log = logging.getLogger("castlegraph.access")
SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
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
    """Copies the request id that `api.http.request_log` holds for the request into every record
    logged meanwhile, in route threads too (Starlette runs sync routes with a copy of the
    context)."""

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
