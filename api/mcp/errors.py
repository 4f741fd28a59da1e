"""How the MCP tools fail: a tool error that starts with castlegraph's error code.

`graph::entity_not_found: no entity ...` reads the same whether the tool ran in-process or
through a service, and an agent can act on the code as an HTTP client acts on the envelope's.
A bug is not an answer: its details go to the log, and the agent hears only that it happened.
"""

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

from castlegraph.api.errors import SERVICE_FAILED, ApiError, describe
from castlegraph.graph.errors import CastlegraphError
from castlegraph.resolver.errors import EmptyLabel, ErrorCode

log = logging.getLogger("castlegraph.mcp")


def _is_bug(error: CastlegraphError) -> bool:
    """As the HTTP envelope decides: an error of status 500 is a bug, not an answer.

    The API layer's own errors never are: a service's answer over HTTP was already decided
    there, and an unreachable service is something the caller must hear about.
    """
    return not isinstance(error, ApiError) and error.status == 500


@contextmanager
def tool_errors() -> Iterator[None]:
    """castlegraph's errors as tool errors with their code; a bug's details stay in the log."""
    try:
        yield
    except CastlegraphError as error:
        if _is_bug(error):
            log.error("internal error %s: %s", error.code, error.log_text())
            raise ToolError(f"{ErrorCode.INTERNAL_ERROR}: {SERVICE_FAILED}") from error
        raise ToolError(f"{error.code}: {describe(error)}") from error
    except EmptyLabel as error:
        raise ToolError(f"{error.code}: {error}") from error
    except ValidationError as error:
        raise ToolError(invalid(error)) from error


def invalid(error: ValidationError) -> str:
    """A validation error on one line, with its code: `input::invalid: status: Input ...`."""
    problems = "; ".join(
        f"{'.'.join(map(str, item['loc'])) or 'value'}: {item['msg']}" for item in error.errors()
    )
    return f"{ErrorCode.INPUT_INVALID}: {problems}"
