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

from api.client.http import ServiceUnreachable
from api.errors import STATUS_BY_CODE, ApiError, describe
from graph.errors import CastlegraphError
from resolver.errors import EmptyLabel

log = logging.getLogger("castlegraph.mcp")


def _is_bug(error: CastlegraphError) -> bool:
    """As the HTTP envelope decides: an error without a known status is a bug, not an answer.

    A service's own answer (`ApiError`) was already decided there; an unreachable service is
    something the caller must hear about.
    """
    if isinstance(error, ApiError | ServiceUnreachable):
        return False
    return (error.status or STATUS_BY_CODE.get(error.code, 500)) == 500


@contextmanager
def tool_errors() -> Iterator[None]:
    """castlegraph's errors as tool errors with their code; a bug's details stay in the log."""
    try:
        yield
    except CastlegraphError as error:
        if _is_bug(error):
            log.error("internal error %s: %s", error.code, error.message)
            raise ToolError("internal::error: the service failed; see its log") from error
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
    return f"input::invalid: {problems}"
