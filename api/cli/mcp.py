"""`castlegraph mcp`: the MCP tools for an agent host, over stdio.

stdout carries the protocol and nothing else: logs and messages go to stderr. The tools reach
castlegraph through the client every command connects with (`--url`, else the data directory
in-process, else the service that holds it), and an in-process database is stopped when the
host closes stdin.
"""

import logging
import sys

import anyio

from castlegraph.api import VERSION
from castlegraph.api.cli.options import CommonOptions, with_common_options


@with_common_options(json=False)
def mcp(*, options: CommonOptions) -> None:
    """Serve the agent tools (drawer_write, find_duplicates, ...) over MCP on stdio."""
    settings = options.settings()
    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    from castlegraph.api.mcp.server import build_server  # noqa: PLC0415  # the MCP SDK loads for `mcp` only

    with options.client(settings) as client:
        anyio.run(build_server(client, VERSION).run_stdio_async)
