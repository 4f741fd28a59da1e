"""Checks on the test layout itself, and the one Neo4j server a session shares.

The other fixtures live next to the tests that use them: `tests/store/conftest.py` (stores on
every backend), `tests/api/conftest.py` (the app on every backend), `tests/e2e/conftest.py`
(processes and data directories).

`neo4j_address`: Neo4j from `NEO4J_URI`; else a Neo4j 5.26 started once per session by
`scripts/neo4j-server` (Java and Maven); else a `neo4j:5` container when a Docker engine
answers; otherwise every Neo4j test is skipped with the reason, or fails where
`CASTLEGRAPH_NEO4J_REQUIRED` is set (`tests.support.neo4j_server.unavailable`).

Every test that runs on Neo4j carries the `neo4j` mark, however it gets there
(`pytest_collection_modifyitems`), so `-m neo4j` and `-m "not neo4j"` split the suite exactly.
"""

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from castlegraph.resolver import core
from tests.support.neo4j_server import (
    Neo4jServer,
    missing_tools_reason,
    neo4j_required,
    start_or_give_up,
    unavailable,
)

NEO4J_IMAGE = "neo4j:5.26"

ROOT = Path(__file__).resolve().parents[1]

BACKEND_FIXTURES = {"store", "app_client", "backend"}
"""The fixtures a test is parametrised over to run on each backend (`store/conftest.py`,
`api/conftest.py`, `e2e/conftest.py`); their `neo4j` value reaches Neo4j."""


def runs_on_neo4j(item: pytest.Item) -> bool:
    """The test needs the session's Neo4j: directly, or through a backend fixture's `neo4j`
    value, which a module's own `parametrize` (as the Browser tests') may give without a mark."""
    if "neo4j_address" in getattr(item, "fixturenames", ()):
        return True
    callspec = getattr(item, "callspec", None)
    params = callspec.params if callspec is not None else {}
    return any(params.get(name) == "neo4j" for name in BACKEND_FIXTURES)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if runs_on_neo4j(item) and item.get_closest_marker("neo4j") is None:
            item.add_marker(pytest.mark.neo4j)


CORE_CHOICE = os.environ.get("CASTLEGRAPH_CORE") or "auto"
"""The core every test runs on, chosen as a service chooses it (`resolver.core`): the compiled
one where it was built, unless `CASTLEGRAPH_CORE=python` (a CI job runs the suite so too)."""


def pytest_configure(config: pytest.Config) -> None:
    core.choose(CORE_CHOICE)  # type: ignore[arg-type]  # a bad value fails here, naming it


def pytest_report_header(config: pytest.Config) -> str:
    return f"castlegraph core: {core.running()} (CASTLEGRAPH_CORE={CORE_CHOICE})"


def skip_reason(report: pytest.TestReport) -> str:
    """The reason a skipped test gave, without pytest's `Skipped: ` prefix and location."""
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """What did not run, counted by reason: a Neo4j that could not start skips every Neo4j
    test with one reason, and a reader should see that at a glance, not in a list of 300."""
    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    reasons = Counter(skip_reason(report) for report in skipped)
    terminalreporter.section("skipped tests by reason")
    for reason, count in reasons.most_common():
        terminalreporter.write_line(f"{count:5d}  {reason}")


def _docker_engine_reason() -> str | None:
    """None when a Docker engine answers, else why Neo4j tests cannot run here."""
    host = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    if host.startswith("unix://") and not Path(host.removeprefix("unix://")).exists():
        return f"no NEO4J_URI, and no Docker engine at {host} for testcontainers"
    try:
        import docker  # noqa: PLC0415  # optional: only needed when probing for an engine

        client = docker.from_env()
        try:
            client.ping()
        finally:
            client.close()
    except Exception as error:
        return f"no NEO4J_URI, and the Docker engine did not answer ({type(error).__name__})"
    return None


@pytest.fixture(scope="session")
def neo4j_address() -> Iterator[tuple[str, str, str]]:
    """(Bolt URI, user, password) of the Neo4j the session's tests use."""
    uri = os.environ.get("NEO4J_URI")
    if uri:
        yield uri, os.environ.get("NEO4J_USER", "neo4j"), os.environ.get("NEO4J_PASSWORD", "")
        return
    required = neo4j_required()
    if missing_tools_reason() is None:
        server = Neo4jServer()
        start_or_give_up(server, required=required)
        try:
            yield server.uri, "neo4j", "auth-is-off"  # the harness runs without authentication
        finally:
            server.stop()
        return
    reason = _docker_engine_reason()
    if reason:
        unavailable(f"{reason}; {missing_tools_reason()}", required=required)
    from testcontainers.neo4j import Neo4jContainer  # noqa: PLC0415  # only with an engine

    with Neo4jContainer(NEO4J_IMAGE) as container:
        yield container.get_connection_url(), "neo4j", container.password
