"""Where Neo4j must run (`CASTLEGRAPH_NEO4J_REQUIRED`, set by `scripts/test` when Java and
Maven exist), a Neo4j that cannot start fails every Neo4j test; elsewhere they skip, saying why."""

import pytest

from tests.support.neo4j_server import (
    REQUIRED_ENV,
    Neo4jServer,
    neo4j_required,
    start_or_give_up,
    unavailable,
)


class ExitsAtStart(Neo4jServer):
    """A launcher that exited before its ready line, as `Neo4jServer.start` reports it."""

    def start(self) -> str:
        raise RuntimeError("Neo4j exited before it was ready:\nneo4j-server: failed to start")


@pytest.mark.parametrize(
    ("value", "required"), [(None, False), ("", False), ("0", False), ("1", True), ("yes", True)]
)
def test_the_variable_says_whether_neo4j_must_run(value: str | None, required: bool) -> None:
    environ = {} if value is None else {REQUIRED_ENV: value}
    assert neo4j_required(environ) is required


def test_a_failed_start_fails_where_neo4j_is_required() -> None:
    with pytest.raises(pytest.fail.Exception) as failed:
        start_or_give_up(ExitsAtStart(), required=True)
    message = str(failed.value)
    assert message.startswith(
        "the session's Neo4j did not start: Neo4j exited before it was ready "
        f"({REQUIRED_ENV} is set: Neo4j must run here)"
    )
    assert "neo4j-server: failed to start" in message  # the launcher's own words, in full


def test_a_failed_start_skips_where_neo4j_is_not_required() -> None:
    with pytest.raises(pytest.skip.Exception) as skipped:
        start_or_give_up(ExitsAtStart(), required=False)
    assert str(skipped.value) == (
        "the session's Neo4j did not start: Neo4j exited before it was ready"
    )


def test_missing_tools_fail_where_neo4j_is_required() -> None:
    with pytest.raises(pytest.fail.Exception):
        unavailable("java not found", required=True)
    with pytest.raises(pytest.skip.Exception):
        unavailable("java not found", required=False)
