"""`castlegraph mcp`: the MCP tools for an agent host, over stdio.

stdout carries the protocol and nothing else: logs and messages go to stderr. The palace is
found as every other command finds it (`--url`, else the data directory in-process, else the
service that holds it), and an in-process database is stopped when the host closes stdin.
"""

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import anyio

from api import VERSION
from api.cli.options import ConfigOption, DataDirOption, UrlOption, reported_errors, settings_from
from api.client.connect import located
from api.service.runtime import Runtime
from api.service.settings import Settings

if TYPE_CHECKING:
    from api.mcp.palace import Palace


def mcp(  # typer calls commands with keywords
    *,
    url: UrlOption = None,
    data_dir: DataDirOption = None,
    config: ConfigOption = None,
) -> None:
    """Serve the agent tools (drawer_write, find_duplicates, ...) over MCP on stdio."""
    settings = settings_from(config, data_dir)
    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    from api.mcp.server import build_server  # noqa: PLC0415  # the MCP SDK loads for `mcp` only

    with reported_errors(), open_palace(settings, url) as palace:
        anyio.run(build_server(palace, VERSION).run_stdio_async)


@contextmanager
def open_palace(settings: Settings, url: str | None) -> Iterator["Palace"]:
    """The palace for a stdio session, found as `api.client.connect.connect` finds a client.

    With `url`, a service; otherwise the data directory in-process, or, when a running service
    holds it, that service. An in-process backend is stopped when the session ends.
    """
    from api.mcp.palace import HttpPalace, LocalPalace  # noqa: PLC0415  # see `mcp`

    with located(settings, url) as place:
        if isinstance(place, Runtime):
            yield LocalPalace(place)
            return
        with HttpPalace(place, settings) as palace:
            yield palace
