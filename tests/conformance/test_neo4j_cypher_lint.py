"""Every Cypher file that Neo4j runs must pass Neo4j's official Cypher linter.

The linter (`@neo4j-cypher/language-support`, see tools/cypher-lint/README.md) runs offline
under node. All files and the self-test samples go through ONE node process (module-scoped
fixture): start-up costs about a second, each statement a further ~0.1 s.

FalkorDB-dialect files are not linted here: the Neo4j linter would rightly reject them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
CYPHER = REPO / "cypher"
LINTER = REPO / "tools" / "cypher-lint"
INSTALLED_MARKER = LINTER / "node_modules" / "@neo4j-cypher" / "language-support" / "package.json"
INSTALL_HINT = "run `npm ci --prefix tools/cypher-lint`"

# (folder under cypher/, whether a file may hold several `;`-separated statements)
NEO4J_FOLDERS = [
    (".", False),  # shared by both backends
    ("neo4j", False),
    ("schema/neo4j", False),
    ("browser", True),  # ready queries for Neo4j Browser
]

# Self-test samples: the linter must catch each (with a message containing the word), so a
# green run over the real files means something.
MUST_FIND = {
    "undefined_variable": ("MATCH (n) RETURN m", "not defined"),
    "neo4j4_index_syntax": ("CREATE INDEX ON :Person(name)", "index"),
    "falkordb_procedure": (
        "CALL db.idx.fulltext.queryNodes('Drawer', 'x') YIELD node RETURN node",
        "db.idx.fulltext.queryNodes",
    ),
    "deprecated_id": ("MATCH (n) RETURN id(n)", "deprecated"),
    "plugin_function": ("RETURN apoc.text.join(['a'], ',') AS s", "apoc.text.join"),
    "two_statements": ("MATCH (n) RETURN n;\nMATCH (m) RETURN m", "exactly one statement"),
}
CLEAN = "MATCH (d:Drawer {id: $id}) RETURN d.name AS name"
# A Browser script: statements split on `;` (not inside strings or comments), each linted
# alone, positions reported in the file. Only the third statement is wrong (line 6).
SCRIPT = """:param name => 'Ada';
// everything Ada is mentioned in; by name
MATCH (d:Drawer)-[:MENTIONS]->(e:Entity {name: $name}) RETURN d;
/* a second query */
MATCH (d:Drawer) WHERE d.name = 'a;b'
RETURN e;
// trailing comment
"""
SELFTEST = "<selftest>/"


def neo4j_files() -> list[tuple[Path, bool]]:
    """The Neo4j-facing .cypher files present now, with their `script` flag."""
    return [
        (path, script)
        for folder, script in NEO4J_FOLDERS
        for path in sorted((CYPHER / folder).glob("*.cypher"))
    ]


def _unavailable(reason: str) -> None:
    # CI must really lint; a developer without node just gets a skip that says why.
    if os.environ.get("CI"):
        pytest.fail(f"{reason}: {INSTALL_HINT}", pytrace=False)
    pytest.skip(f"{reason} ({INSTALL_HINT} to enable the Neo4j Cypher lint)")


@pytest.fixture(scope="module")
def findings() -> dict[str, list[dict[str, Any]]]:
    """Lint the real files and the self-test samples in one node run; findings by path."""
    node = shutil.which("node")
    if node is None:
        _unavailable("node is not installed")
    if not INSTALLED_MARKER.is_file():
        _unavailable("the Cypher linter's node_modules are not installed")

    items: list[dict[str, Any]] = [
        {
            "path": path.relative_to(REPO).as_posix(),
            "text": path.read_text("utf-8"),
            "script": script,
        }
        for path, script in neo4j_files()
    ]
    items += [{"path": SELFTEST + name, "text": text} for name, (text, _) in MUST_FIND.items()]
    items.append({"path": SELFTEST + "clean", "text": CLEAN})
    items.append({"path": SELFTEST + "script", "text": SCRIPT, "script": True})

    proc = subprocess.run(
        [str(node), "lint.mjs"],
        cwd=LINTER,
        input=json.dumps(items),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, f"lint.mjs failed ({proc.returncode}):\n{proc.stderr}"
    by_path: dict[str, list[dict[str, Any]]] = {item["path"]: [] for item in items}
    for finding in json.loads(proc.stdout):
        by_path[finding["path"]].append(finding)
    return by_path


def describe(found: list[dict[str, Any]]) -> str:
    return "\n".join(f"{f['path']}:{f['line']}:{f['column']} {f['message']}" for f in found)


def test_neo4j_cypher_files_pass_the_linter(findings: dict[str, list[dict[str, Any]]]) -> None:
    found = [f for path, fs in findings.items() if not path.startswith(SELFTEST) for f in fs]
    if found:  # pytest.fail keeps the report to one line per finding
        pytest.fail(f"Neo4j's Cypher linter reports:\n{describe(found)}", pytrace=False)


@pytest.mark.parametrize("name", MUST_FIND)
def test_linter_catches(name: str, findings: dict[str, list[dict[str, Any]]]) -> None:
    found = findings[SELFTEST + name]
    word = MUST_FIND[name][1]
    assert any(word.lower() in f["message"].lower() for f in found), (
        f"expected a finding mentioning {word!r}, got:\n{describe(found) or '(none)'}"
    )


def test_linter_accepts_clean_statement_with_parameter(
    findings: dict[str, list[dict[str, Any]]],
) -> None:
    assert not findings[SELFTEST + "clean"], describe(findings[SELFTEST + "clean"])


def test_linter_splits_browser_scripts(findings: dict[str, list[dict[str, Any]]]) -> None:
    found = findings[SELFTEST + "script"]
    where = [(f["statement_index"], f["line"], f["column"]) for f in found]
    assert where == [(2, 6, 8)], describe(found)
