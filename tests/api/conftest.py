"""`client`: the real FastAPI app over HTTP (TestClient), on every backend.

One app per backend for the whole session — on its own embedded FalkorDB, and on the session's
Neo4j (`neo4j_address`, `tests/conftest.py`) — and each test gets it with an empty graph, so
every API test states an answer that must not depend on the database behind it.

The apps allow mining under one directory, `mine_root`; `mine_dir` is a fresh directory inside
it for each test (pytest's `tmp_path` lies outside it).
"""

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.support.app import app_settings, backend_graph, running_app, wiped

BACKENDS = ["falkordb", pytest.param("neo4j", marks=pytest.mark.neo4j)]


@pytest.fixture(scope="session")
def mine_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one `api.mine_roots` entry of the session's apps."""
    return tmp_path_factory.mktemp("mine-root")


@pytest.fixture
def mine_dir(mine_root: Path) -> Path:
    """A directory of the test's own inside `mine_root`."""
    return Path(tempfile.mkdtemp(dir=mine_root))


@pytest.fixture(scope="module", params=BACKENDS)
def app_client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, mine_root: Path
) -> Iterator[TestClient]:
    """One running app per module and backend. Not per session: an app's job runner scans the
    graph for unfinished jobs and takes those nobody holds, and on Neo4j the session's one
    database is shared with the store and end-to-end tests that run later, whose jobs a
    session-long app would take from them."""
    data_dir = tmp_path_factory.mktemp("service")
    graph = backend_graph(request)
    settings = app_settings(data_dir, graph=graph, api={"mine_roots": [mine_root]})
    with running_app(settings) as client:
        yield client


@pytest.fixture
def client(app_client: TestClient) -> TestClient:
    return wiped(app_client)
