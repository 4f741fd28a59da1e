"""What an embedded service loads: the Neo4j driver only when Neo4j is configured (design §10).

The driver held 30 MB of the service's RSS on FalkorDB, where it is never used; the MCP SDK
~32 MB where no agent calls `/mcp`.
"""

import os
import subprocess
import sys
from pathlib import Path

from castlegraph.api.http.lazy_mcp import MCP_PATH
from castlegraph.api.mcp.server import MCP_PATH as SERVER_MCP_PATH


def test_the_embedded_service_does_not_import_the_neo4j_driver() -> None:
    script = (
        "import sys\n"
        "import api.cli.app, api.http.app, api.service.runtime, graph.backends.opener\n"
        "print(sorted(m for m in sys.modules if m == 'neo4j' or m.startswith('neo4j.')))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert found.strip() == "[]"


def test_the_http_app_loads_the_mcp_sdk_only_when_mcp_is_called(tmp_path: Path) -> None:
    """The SDK and the tools built on it held ~32 MB of a started service's RSS."""
    script = (
        "import sys\n"
        "from castlegraph.api.http.app import create_app\n"
        "app = create_app()\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.')))\n"
    )
    environment = {**os.environ, "CASTLEGRAPH_DATA_DIR": str(tmp_path / "data")}
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=environment
    ).stdout
    assert found.strip() == "[]"


def test_the_lazy_route_answers_at_the_servers_own_path() -> None:
    assert MCP_PATH == SERVER_MCP_PATH
