"""What every MCP test shares, over stdio or at `/mcp`: the tools' names, the one text block
each answer carries, a session with a real `castlegraph mcp` process, and an agent's round of
the drawer and mention tools (`assert_agent_tools`)."""

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent, TextResourceContents

from castlegraph.api.mcp.guide import GUIDE_URI

TOOLS = {
    "drawer_write",
    "diary_write",
    "drawer_read",
    "drawer_list",
    "drawer_search",
    "drawer_supersede",
    "drawer_delete",
    "drawer_similar_links",
    "find_duplicates",
    "dedup_mark_checked",
    "post_mentions",
    "resolve_entity",
    "entity_mentions",
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


def answer(result: CallToolResult) -> dict[str, Any]:
    """A tool's structured answer; a tool error fails the test with its text."""
    assert not result.is_error, text(result)
    assert result.structured_content is not None
    return result.structured_content


def refusal(result: CallToolResult) -> str:
    """A tool error's text."""
    assert result.is_error, result
    return text(result)


async def assert_agent_tools(session: ClientSession) -> None:
    """What an agent does with the drawer and mention tools on an empty palace, each answer
    checked against what the next call reads back; the same over stdio and at `/mcp`. The
    room (in wing `agents`) and the entity `Ada Lovelace` must not exist yet."""
    room = {"wing": "agents", "room": "deploy"}
    first = answer(await session.call_tool("drawer_write", {**room, "content": "Ada runs staging"}))
    second = answer(
        await session.call_tool(
            "drawer_write", {**room, "content": "ada lovelace owns the deploy keys", "full": True}
        )
    )
    a, b = first["id"], second["id"]
    assert first == {"id": a, "created": True, "similar": []}  # no hashes unless asked
    assert second["detail"]["drawer"]["content_hash"]
    assert second["detail"]["drawer"]["id"] == b

    # Unknown arguments are refused, and nothing is stored.
    forged = {**room, "content": "A third memory", "agent": "me"}
    refused = refusal(await session.call_tool("drawer_write", forged))
    assert refused == (
        "Error executing tool drawer_write: input::invalid: agent: Extra inputs are not permitted"
    )
    page_one = answer(await session.call_tool("drawer_list", {**room, "limit": 1}))
    page_two = answer(
        await session.call_tool("drawer_list", {**room, "cursor": page_one["next_cursor"]})
    )
    assert [d["id"] for d in page_one["drawers"]] == [a]
    assert ([d["id"] for d in page_two["drawers"]], page_two["next_cursor"]) == ([b], None)
    search = {**room, "words": "STAGING ada"}
    assert [
        d["id"] for d in answer(await session.call_tool("drawer_search", search))["drawers"]
    ] == [a]
    nothing = answer(await session.call_tool("drawer_search", {**room, "words": "ada nowhere"}))
    assert nothing == {"drawers": [], "more": False}
    read = answer(await session.call_tool("drawer_read", {"drawer_id": a}))
    assert (read["content"], read["wing"], read["room"]) == ("Ada runs staging", "agents", "deploy")

    # Mentions resolve: the second spelling converges on the entity the first created.
    mentions = [
        {"drawer": a, "name": "Ada Lovelace", "kind": "person"},
        {"drawer": b, "name": "ada lovelace", "kind": "person", "extractor": "agent"},
    ]
    posted = answer(await session.call_tool("post_mentions", {"mentions": mentions}))
    ada = posted["results"][0]["entity"]
    assert posted == {
        "results": [
            {
                "entity": ada,
                "name": "Ada Lovelace",
                "rule": "new",
                "created": True,
                "possibly_same_as": [],
            },
            {
                "entity": ada,
                "name": "Ada Lovelace",
                "rule": "normalized",
                "created": False,
                "possibly_same_as": [],
            },
        ]
    }
    seen = answer(await session.call_tool("entity_mentions", {"entity_id": ada}))
    assert seen["entity"] == ada
    assert {(m["drawer"], m["observation"]["name"]) for m in seen["mentions"]} == {
        (a, "Ada Lovelace"),
        (b, "ada lovelace"),
    }
    bad_mention = refusal(
        await session.call_tool("post_mentions", {"mentions": [{**mentions[0], "role": "x"}]})
    )
    assert "input::invalid: mentions.0.role: Extra inputs are not permitted" in bad_mention

    # Supersede links the new version to the old; delete, then read, is not found.
    newer = answer(
        await session.call_tool("drawer_supersede", {"drawer_id": a, "content": "Ada runs prod"})
    )
    assert (newer["created"], newer["superseded"]) == (True, a)
    new_version = answer(await session.call_tool("drawer_read", {"drawer_id": newer["id"]}))
    old_version = answer(await session.call_tool("drawer_read", {"drawer_id": a}))
    assert (new_version["supersedes"], new_version["content"]) == (a, "Ada runs prod")
    assert old_version["valid_to"] is not None
    deleted = answer(await session.call_tool("drawer_delete", {"drawer_id": b}))
    assert deleted == {"deleted": b}
    gone = refusal(await session.call_tool("drawer_read", {"drawer_id": b}))
    assert f"palace::drawer_not_found: no drawer with id {b!r}" in gone
    current = answer(await session.call_tool("drawer_list", room))
    assert [d["id"] for d in current["drawers"]] == [newer["id"]]

    # The guide is served as it ships, and the review prompt carries it.
    guide = (Path(__file__).resolve().parents[2] / "docs" / "agent-guide.md").read_text("utf-8")
    [listed] = (await session.list_resources()).resources
    assert (str(listed.uri), listed.mime_type) == (GUIDE_URI, "text/markdown")
    [content] = (await session.read_resource(GUIDE_URI)).contents
    assert isinstance(content, TextResourceContents)
    assert content.text == guide
    [prompt] = (await session.list_prompts()).prompts
    assert (prompt.name, {arg.name for arg in prompt.arguments or []}) == (
        "review",
        {"wing", "room"},
    )
    [message] = (await session.get_prompt("review", {"wing": "agents"})).messages
    assert isinstance(message.content, TextContent)
    assert 'find_duplicates {"wing": "agents"}' in message.content.text
    assert message.content.text.endswith(guide)
