"""The agent guide (docs/agent-guide.md) as the MCP server offers it: a resource and a prompt.

The tools' descriptions send an agent to the guide to judge a pair, so the server must hand it
over: a client reads `castlegraph://agent-guide`. The file ships inside the package
(`agent-guide.md` here links to docs/, and pyproject's package data installs it), so an
installed service serves the guide its own version was written against.
"""

from importlib import resources

GUIDE_URI = "castlegraph://agent-guide"
GUIDE_FILE = "agent-guide.md"
GUIDE_DESCRIPTION = (
    "How to judge duplicate drawers and entity review links, and what to do with each verdict."
)


def guide_text() -> str:
    return resources.files("castlegraph.api.mcp").joinpath(GUIDE_FILE).read_text(encoding="utf-8")


def review_prompt(wing: str | None = None, room: str | None = None) -> str:
    """Work through what waits for review, judging as the guide says."""
    scope = {"wing": wing, "room": room}
    arguments = ", ".join(f'"{k}": "{v}"' for k, v in scope.items() if v)
    return (
        "Review what waits in castlegraph. Call hygiene first. For duplicate pairs, call "
        f"find_duplicates {{{arguments}}}, read both drawers (drawer_read) when the excerpts "
        "are not enough, act and record each verdict with dedup_mark_checked. For entity review "
        "links, call review_links and settle each with settle_review_link, or leave it pending "
        "when unsure. Judge by meaning, never by score, as the guide says:\n\n" + guide_text()
    )
