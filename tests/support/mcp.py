"""What every MCP test shares, over stdio or at `/mcp`: the tools' names, the one text block
each answer carries, and a session with a real `castlegraph mcp` process."""

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

TOOLS = {
    "drawer_write",
    "diary_write",
    "drawer_duplicates",
    "find_duplicates",
    "dedup_mark_checked",
    "resolve_entity",
    "entity_candidates",
    "review_links",
    "settle_review_link",
    "add_alias",
    "hygiene",
}

# One `initialize` request as plain JSON-RPC, for tests of what the HTTP layer does around `/mcp`.
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


def text(result: CallToolResult) -> str:
    """The answer's one text block."""
    [block] = result.content
    assert isinstance(block, TextContent)
    return block.text


@asynccontextmanager
async def mcp_stdio_session(
    data_dir: Path, log: Path, env: dict[str, str] | None = None
) -> AsyncIterator[ClientSession]:
    """An initialised session with `castlegraph mcp --data-dir DATA_DIR`, its stderr in `log`;
    the process ends when the session closes its stdin."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "castlegraph.api.cli", "mcp", "--data-dir", str(data_dir)],
        env=env,
    )
    with log.open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session
