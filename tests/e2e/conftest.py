"""Fixtures of the end-to-end tests: real `castlegraph` processes and their data directories.

- `backend`: the graph a test's processes use, for tests that run on every backend: the
  embedded FalkorDB each process starts on the test's data directory, or the session's Neo4j
  (`neo4j_address`, `tests/conftest.py`; its schema applied once, `neo4j_graph`), wiped
  before the test as `tests/store` does (`tests.support.backends.Backend`).
- `spawn`: starts `castlegraph serve` processes (on the test's `backend`, when it asks for one);
  whatever a failed test left running is killed.
- `cli`: `castlegraph` commands in-process (`tests.support.cli_runner.cli`), on the backend.
- `data_dir`: a data directory of the test's own, not yet created (the CLI or service makes it).
- `anyio_backend`: the MCP client sessions run on asyncio.
"""

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest
from typer.testing import Result

from castlegraph.graph.backends.neo4j_store import Neo4jStore
from tests.support.backends import NEO4J_DATABASE, Backend, neo4j_backend
from tests.support.cli_runner import cli as run_cli
from tests.support.processes import Service

BACKENDS = ["falkordb", pytest.param("neo4j", marks=pytest.mark.neo4j)]


@pytest.fixture(scope="session")
def neo4j_graph(neo4j_address: tuple[str, str, str]) -> Iterator[Neo4jStore]:
    """The session's Neo4j with its schema applied once, as a deployment's first start leaves
    it: a service then starts in seconds, not after creating and awaiting every index."""
    store = Neo4jStore(*neo4j_address, NEO4J_DATABASE)
    store.apply_schema()
    yield store
    store.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> Backend:
    if request.param == "falkordb":
        return Backend("falkordb")
    graph: Neo4jStore = request.getfixturevalue("neo4j_graph")
    graph.wipe()
    return neo4j_backend(request.getfixturevalue("neo4j_address"))


def backend_env(request: pytest.FixtureRequest) -> dict[str, str]:
    """The test's backend settings when it runs on every backend; else none (embedded)."""
    if "backend" not in request.fixturenames:
        return {}
    chosen: Backend = request.getfixturevalue("backend")
    return chosen.env


@pytest.fixture
def spawn(request: pytest.FixtureRequest) -> Iterator[Callable[..., Service]]:
    """Start services; whatever a failed test left running is killed afterwards."""
    started: list[Service] = []
    graph_env = backend_env(request)

    def start(
        data_dir: Path,
        log_dir: Path | None = None,
        env: dict[str, str] | None = None,
        args: list[str] | None = None,
    ) -> Service:
        started.append(Service(data_dir, log_dir, {**graph_env, **(env or {})}, args))
        return started[-1]

    yield start
    for service in started:
        if service.process.poll() is None:
            service.process.kill()
            service.process.wait()


@pytest.fixture
def cli(request: pytest.FixtureRequest) -> Callable[..., Result]:
    """`castlegraph ARGS --data-dir DATA_DIR` in-process, on the test's backend."""
    graph_env = backend_env(request)

    def run(data_dir: Path | None, *args: str, env: Mapping[str, str] | None = None) -> Result:
        return run_cli(data_dir, *args, env={**graph_env, **(env or {})})

    return run


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
