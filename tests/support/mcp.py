"""What every MCP test expects of the tools, over stdio or at `/mcp`: their names and the one
text block each answer carries."""

from mcp.types import CallToolResult, TextContent

TOOLS = {
    "drawer_write",
    "diary_write",
    "drawer_duplicates",
    "find_duplicates",
    "dedup_mark_checked",
    "resolve_entity",
    "entity_candidates",
    "add_alias",
    "hygiene",
}


def text(result: CallToolResult) -> str:
    """The answer's one text block."""
    [block] = result.content
    assert isinstance(block, TextContent)
    return block.text
