"""`client`: the real FastAPI app over HTTP (TestClient), on its own embedded database.

One app for the whole session; each test gets it with an empty graph.
"""

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.support.app import app_settings, running_app, wiped


@pytest.fixture(scope="session")
def app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(app_settings(tmp_path_factory.mktemp("service"))) as client:
        yield client


@pytest.fixture
def client(app_client: TestClient) -> TestClient:
    return wiped(app_client)
