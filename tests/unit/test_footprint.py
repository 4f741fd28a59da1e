"""What an embedded service loads: the Neo4j driver only when Neo4j is configured (design §10).

The driver held 30 MB of the service's RSS on FalkorDB, where it is never used.
"""

import subprocess
import sys


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
