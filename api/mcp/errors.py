"""How the MCP tools fail: a tool error that starts with castlegraph's error code.

The MCP door's table: a bug is `internal::error: the service failed; see its log` (its code and
words go to the log); any other `CastlegraphError` is `<code>: <describe(error)>`, a service's
answer included; a tool's invalid arguments are `input::invalid: <loc>: <msg>; ...`. So an error
reads the same in-process or through a service, and an agent acts on its code.
"""

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

from castlegraph.api.errors import SERVICE_FAILED, describe
from castlegraph.resolver.errors import CastlegraphError, ErrorCode

log = logging.getLogger("castlegraph.mcp")


def tool_error_text(error: CastlegraphError) -> str:
    """What the agent reads of an error; a bug's code and words are logged instead."""
    if error.bug:
        log.error("internal error %s: %s", error.code, error.log_text())
        return f"{ErrorCode.INTERNAL_ERROR}: {SERVICE_FAILED}"
    return f"{error.code}: {describe(error)}"


@contextmanager
def tool_errors() -> Iterator[None]:
    """castlegraph's errors and invalid arguments as tool errors that start with their code."""
    try:
        yield
    except CastlegraphError as error:
        raise ToolError(tool_error_text(error)) from error
    except ValidationError as error:
        raise ToolError(invalid(error)) from error


def invalid(error: ValidationError) -> str:
    """A validation error on one line, with its code: `input::invalid: status: Input ...`."""
    problems = "; ".join(
        f"{'.'.join(map(str, item['loc'])) or 'value'}: {item['msg']}" for item in error.errors()
    )
    return f"{ErrorCode.INPUT_INVALID}: {problems}"
