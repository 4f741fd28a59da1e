"""`castlegraph export` run in-process on a data directory (or on Neo4j) seeded through the
graph layer.

What the export reads and how it writes them: tests/store/test_export.py.
"""

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from tests.support.backends import Backend
from tests.support.export_graph import GRAPHML_NS, seed

Cli = Callable[..., Result]


def seeded(backend: Backend, data_dir: Path) -> None:
    with backend.migrated(data_dir) as store:
        seed(store)


def test_export_command(data_dir: Path, tmp_path: Path, cli: Cli, backend: Backend) -> None:
    seeded(backend, data_dir)
    shown = cli(data_dir, "export", "--entity", "Ada Lovelace", "--format", "cypher")
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.startswith("// castlegraph export: 'entity Ada Lovelace'\n// 4 nodes, 4")
    target = tmp_path / "ops.graphml"
    written = cli(data_dir, "export", "--wing", "infra", "--room", "ops", "-o", str(target))
    assert written.exit_code == 0, written.output
    assert f"wrote 8 nodes and 9 relationships to {target}" in written.stderr
    nodes = ET.parse(target).getroot().findall("g:graph/g:node", GRAPHML_NS)  # noqa: S314  # ours
    assert len(nodes) == 8


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ((), "give either --entity NAME or --wing W --room R"),
        (("--wing", "infra"), "--wing and --room go together"),
        (("--entity", "Ada", "--room", "ops"), "--entity cannot be combined with --wing/--room"),
        (("--entity", "x", "--format", "csv"), "'csv' is not one of 'graphml'"),
    ],
)
def test_export_usage_errors(data_dir: Path, args: tuple[str, ...], said: str, cli: Cli) -> None:
    refused = cli(data_dir, "export", *args)
    assert refused.exit_code == 2
    assert said in refused.stderr
    assert refused.stdout == ""


def test_export_of_an_unknown_entity_is_a_clear_error(
    data_dir: Path, cli: Cli, backend: Backend
) -> None:
    seeded(backend, data_dir)
    result = cli(data_dir, "export", "--entity", "Grace Hopper")
    assert (result.exit_code, result.stderr) == (1, "castlegraph: no entity named 'Grace Hopper'\n")
