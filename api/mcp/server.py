"""castlegraph as a Model Context Protocol server (the `mcp` SDK's `MCPServer`, once `FastMCP`).

One server definition (`build_server`), two transports: stdio (`castlegraph mcp`, on the client
every command connects with) and streamable HTTP at `/mcp` on the HTTP app, calling the use
cases the app built. The HTTP one is stateless with JSON answers, so several instances can
serve behind a load balancer; the app builds it on the first call of `/mcp` and runs the SDK's
session manager in its lifespan from then on (`api.http.lazy_mcp`).
"""

import inspect
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, cast

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.prompts import Prompt
from mcp.server.mcpserver.resources import TextResource
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import ConfigDict, ValidationError
from starlette.routing import BaseRoute

from castlegraph.api.client.local import LocalClient
from castlegraph.api.client.protocol import Client
from castlegraph.api.mcp.errors import invalid
from castlegraph.api.mcp.guide import GUIDE_DESCRIPTION, GUIDE_URI, guide_text, review_prompt
from castlegraph.api.mcp.tools import CastleTools
from castlegraph.api.usecases.assembly import UseCases

NAME = "castlegraph"
MCP_PATH = "/mcp"
TEXT_TOOLS = ("find_duplicates", "hygiene")
"""Answered in text a model reads; the other tools answer the HTTP API's JSON (writes, its
essentials: `api.mcp.answers`)."""

INSTRUCTIONS = f"""\
castlegraph stores memories (drawers) verbatim in wings and rooms, never twice, and keeps a \
graph of the entities they mention without ever merging two different things on its own. \
Drawers: drawer_write or diary_write store one (answering its id); drawer_read reads one, \
drawer_list pages through a room, drawer_search finds a room's drawers by their words, \
drawer_supersede replaces a text keeping the old version, \
drawer_delete removes one for good. Entities: post_mentions records which entities a drawer \
mentions, resolve_entity shows what a name would resolve to, entity_mentions where an entity \
is mentioned. Review: hygiene says what waits; find_duplicates lists pairs of drawers alike in \
meaning (drawer_similar_links: one drawer's copies recorded at write time); judge each pair \
(duplicate, supplement, contradiction, unrelated) as the resource {GUIDE_URI} says and \
record it with dedup_mark_checked; review_links lists the entity pairs that may be one thing: \
settle each with settle_review_link (same or different; different undoes an earlier same). \
add_alias records another spelling that no other entity has. The prompt `review` walks \
through all of it. Unknown arguments are refused (input::invalid)."""

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True)
ADDITIVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False)
IDEMPOTENT = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True)


def _tools(tools: CastleTools) -> list[tuple[Callable[..., Any], ToolAnnotations]]:
    return [
        (tools.drawer_write, ADDITIVE),
        (tools.diary_write, ADDITIVE),
        (tools.drawer_read, READ_ONLY),
        (tools.drawer_list, READ_ONLY),
        (tools.drawer_search, READ_ONLY),
        (tools.drawer_supersede, ADDITIVE),  # the old version is closed, never lost
        (tools.drawer_delete, DESTRUCTIVE),
        (tools.drawer_similar_links, READ_ONLY),
        (tools.find_duplicates, READ_ONLY),
        (tools.dedup_mark_checked, IDEMPOTENT),
        (tools.post_mentions, IDEMPOTENT),  # a mention already recorded changes nothing
        (tools.resolve_entity, READ_ONLY),
        (tools.entity_mentions, READ_ONLY),
        (tools.entity_candidates, READ_ONLY),
        (tools.review_links, READ_ONLY),
        (tools.settle_review_link, IDEMPOTENT),
        (tools.add_alias, IDEMPOTENT),
        (tools.hygiene, READ_ONLY),
    ]


def _description(tool: Callable[..., Any]) -> str:
    """The docstring as the model reads it: paragraphs on one line each, no indentation."""
    paragraphs = inspect.cleandoc(tool.__doc__ or "").split("\n\n")
    return "\n\n".join(" ".join(paragraph.split()) for paragraph in paragraphs)


def _refusing_unknown_arguments(tool: Tool) -> Tool:
    """The tool with its arguments model forbidding what it does not declare.

    The SDK's model ignores unknown arguments, so `drawer_write {"agent": "me"}` would store a
    drawer without an agent, where HTTP refuses the field (422): a misspelt argument must be an
    error the agent hears. The listed schema says so too (`additionalProperties: false`).
    """
    loose = tool.fn_metadata.arg_model
    namespace = {"model_config": ConfigDict(extra="forbid"), "__module__": loose.__module__}
    strict = cast(type[ArgModelBase], type(loose.__name__, (loose,), namespace))
    metadata = tool.fn_metadata.model_copy(update={"arg_model": strict})
    parameters = strict.model_json_schema(by_alias=True)
    return tool.model_copy(update={"fn_metadata": metadata, "parameters": parameters})


UNKNOWN_TOOL = "unknown"


class CastleServer(MCPServer[Any]):
    """Arguments refused by the tools' schemas answer with the code, like every other error.
    Each call is told to `on_call` by tool name (the service's metrics), a name that is no
    tool as `unknown`: a client may send any name, and each label is kept for good."""

    on_call: Callable[[str], None] | None = None
    tool_names: frozenset[str] = frozenset()

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        if self.on_call is not None:
            self.on_call(name if name in self.tool_names else UNKNOWN_TOOL)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            cause = error.__cause__
            if not isinstance(cause, ValidationError):
                raise
            # Still caused by the ValidationError: the SDK then logs field names, not values.
            raise ToolError(f"Error executing tool {name}: {invalid(cause)}") from cause


def build_server(
    client: Client, version: str, on_call: Callable[[str], None] | None = None
) -> MCPServer[Any]:
    """The tools on `client`, the agent guide as a resource and the `review` prompt. Sync
    tools: the SDK runs them on worker threads."""
    tools = [
        _refusing_unknown_arguments(
            Tool.from_function(
                tool,
                description=_description(tool),
                annotations=annotations,
                structured_output=False if tool.__name__ in TEXT_TOOLS else None,
            )
        )
        for tool, annotations in _tools(CastleTools(client))
    ]
    server = CastleServer(NAME, version=version, instructions=INSTRUCTIONS, tools=tools)
    server.on_call = on_call
    server.tool_names = frozenset(tool.name for tool in tools)
    server.add_resource(
        TextResource(
            uri=GUIDE_URI,
            name="agent-guide",
            title="castlegraph agent guide",
            description=GUIDE_DESCRIPTION,
            mime_type="text/markdown",
            text=guide_text(),
        )
    )
    server.add_prompt(
        Prompt.from_function(review_prompt, name="review", description=_description(review_prompt))
    )
    return server


@dataclass(frozen=True, slots=True)
class HttpEndpoint:
    """The `/mcp` route for the HTTP app, and the session manager its lifespan must run."""

    route: BaseRoute
    sessions: StreamableHTTPSessionManager

    def running(self) -> AbstractAsyncContextManager[None]:
        return self.sessions.run()


def http_endpoint(
    usecases: UseCases,
    hosts: frozenset[str],
    version: str,
    on_call: Callable[[str], None] | None = None,
) -> HttpEndpoint:
    """Streamable HTTP at exactly `/mcp`: a mount would answer `/mcp` with a redirect to `/mcp/`,
    which not every client follows. The SDK's own DNS rebinding check is given the service's
    names (`hosts`, design §8.1), so its `Origin` check agrees with the app's `Host` check."""
    server = build_server(LocalClient(usecases), version, on_call)
    # Stateless: the SDK would log "Terminating session: None" for every request.
    logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)
    asgi = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        transport_security=transport_security(hosts, usecases.settings.api.allowed_origins),
    )
    [route] = asgi.routes
    return HttpEndpoint(route, server.session_manager)


def transport_security(
    hosts: frozenset[str], origins: list[str] | None = None
) -> TransportSecuritySettings:
    """The SDK's settings for these names: any port, and `Origin`s of pages served by them or
    allowed (`api.allowed_origins`). The app's own `Origin` check (`api.http.origins`) runs
    first and is stricter: the SDK's is a second net."""
    names = sorted(f"[{host}]" if ":" in host else host for host in hosts)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[pattern for name in names for pattern in (name, f"{name}:*")],
        allowed_origins=[
            f"{scheme}://{name}{port}"
            for name in names
            for scheme in ("http", "https")
            for port in ("", ":*")
        ]
        + list(origins or ()),
    )
