"""The real FastAPI app in-process (TestClient), on its own embedded database.

Entering the TestClient runs the app's lifespan, so the database starts on entry and stops
on exit; a data directory left behind can then be opened by a process or another app.
"""

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from castlegraph.api.http.app import create_app
from castlegraph.api.service.settings import Settings
from tests.support.jobs import unfinished_jobs

JOBS_SECONDS = 60.0

TEST_HOST = "testserver"
"""The `Host` TestClient sends: allowed like a proxy's name would be (`api.allowed_hosts`)."""


def app_settings(data_dir: Path, **sections: Any) -> Settings:
    """Settings for a test app: an isolated data directory, TestClient's `Host` allowed, then
    the given overrides."""
    graph = {"data_dir": data_dir, **sections.pop("graph", {})}
    api = {"allowed_hosts": [TEST_HOST], **sections.pop("api", {})}
    return Settings(graph=graph, api=api, **sections)


def backend_graph(request: Any) -> dict[str, str]:
    """The `graph` settings of a test parametrised over `BACKENDS`: none for the embedded
    database (each app starts its own), the session's Neo4j for `neo4j`."""
    if request.param != "neo4j":
        return {}
    uri, user, password = request.getfixturevalue("neo4j_address")
    return {"neo4j_uri": uri, "neo4j_user": user, "neo4j_password": password}


@contextmanager
def running_app(settings: Settings) -> Iterator[TestClient]:
    """The app with its database started, as a client; the database is stopped afterwards.

    Once the database is ready, the in-memory entity and drawer indexes are waited for, so
    entity and drawer tests go through them (until one is built, candidate probes go to the
    database's index, or on FalkorDB wait for it); a build that failed is not waited for.
    """
    with TestClient(create_app(settings)) as client:
        _wait_for_indexes(client)
        yield client


INDEX_SECONDS = 60.0


def _wait_for_indexes(client: TestClient) -> None:
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    deadline = time.monotonic() + INDEX_SECONDS
    while runtime.ready and time.monotonic() < deadline:
        indexes = (runtime.entity_index, runtime.drawer_index)
        if all(index is None or index.state != "building" for index in indexes):
            return
        time.sleep(0.01)


def app_store(client: TestClient) -> Any:
    """The graph store the running app talks to, to read or seed what HTTP cannot."""
    return client.app.state.runtime.store  # type: ignore[attr-defined]


JOBS_IDLE_SECONDS = 30.0


def wiped(client: TestClient) -> TestClient:
    """The same app with an empty graph: one app per module or session, a clean graph per test.

    Jobs an earlier test started (the fuzz starts many and never waits) are waited for first:
    wiping the graph under a running job deletes its node, and its runner would then fail on it.
    """
    store = app_store(client)
    deadline = time.monotonic() + JOBS_SECONDS
    while unfinished := unfinished_jobs(store):
        assert time.monotonic() < deadline, f"jobs still unfinished: {unfinished}"
        time.sleep(0.02)
    store.wipe()
    return client


def assert_envelope(response_body: Any, code: str) -> None:
    """The error envelope every failed request answers with, carrying `code`."""
    assert set(response_body) == {"error"}
    assert response_body["error"]["code"] == code
    assert response_body["error"]["message"]
    assert "details" in response_body["error"]
