"""Neo4j with auth on and Bolt over TLS only, as production runs it (design §10).

One extra `scripts/neo4j-server --password … --tls` for this module: a part of the store suite
runs on it through `bolt+ssc://` (a self-signed certificate accepted unverified) and
`neo4j+s://` (verified, its certificate trusted through `SSL_CERT_FILE`), and `serve` starts on
it. A wrong password, a plain `bolt://` to the TLS-only port and an untrusted certificate are
refused in castlegraph's words, naming what to check and never the password.
"""

import signal
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from castlegraph.graph.backends.neo4j_store import Neo4jStore
from castlegraph.resolver.errors import CastlegraphError
from tests.store import test_drawers, test_entities, test_migrations
from tests.support.cli_runner import cli
from tests.support.neo4j_server import Neo4jServer, missing_tools_reason
from tests.support.polling import eventually
from tests.support.processes import Service

pytestmark = pytest.mark.neo4j

PASSWORD = "tls-and-auth-secret"
WRONG_PASSWORD = "not-the-password"
CREDENTIALS = (
    "check CASTLEGRAPH_NEO4J_USER and CASTLEGRAPH_NEO4J_PASSWORD (graph.neo4j_user, "
    "graph.neo4j_password)"
)
EXIT_SECONDS = 120.0  # for `serve` to exit, or to be ready: generous, the machine may be busy


@pytest.fixture(scope="module")
def secure_neo4j() -> Iterator[Neo4jServer]:
    """Skipped, like the session's Neo4j, where Java or Maven is missing."""
    reason = missing_tools_reason()
    if reason is not None:
        pytest.skip(reason)
    server = Neo4jServer(password=PASSWORD, tls=True)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def uri(server: Neo4jServer, scheme: str) -> str:
    """The server's address with another Bolt scheme (it prints `bolt+s://127.0.0.1:PORT`)."""
    return f"{scheme}://{server.uri.split('://', 1)[1]}"


@pytest.fixture(scope="module")
def secure_store(secure_neo4j: Neo4jServer) -> Iterator[Neo4jStore]:
    store = Neo4jStore(uri(secure_neo4j, "bolt+ssc"), "neo4j", PASSWORD, "neo4j")
    store.apply_schema()
    yield store
    store.close()


@pytest.fixture
def trusted(secure_neo4j: Neo4jServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine trusts the server's self-signed certificate, as it would a private CA."""
    monkeypatch.setenv("SSL_CERT_FILE", str(secure_neo4j.certificate))


@pytest.fixture
def untrusted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)


STORE_SUITE: list[Callable[[Any], None]] = [
    test_drawers.test_exact_copy_returns_the_existing_drawer,
    test_drawers.test_a_typo_is_stored_and_linked_near_with_evidence,
    test_drawers.test_named_rewrite_with_supersede_replaces_and_keeps_the_name,
    test_drawers.test_delete_removes_the_drawer_and_its_links,
    test_drawers.test_room_listing_pages_oldest_first,
    test_entities.test_an_entity_is_found_by_each_spelling_key_after_an_alias,
    test_entities.test_a_review_link_goes_from_the_newer_entity_to_the_older,
    test_entities.test_one_mentions_edge_per_drawer_and_entity,
    test_entities.test_an_unknown_drawer_refuses_the_whole_batch,
    test_migrations.test_migrations_are_recorded_once,
    test_migrations.test_the_migration_lease_is_taken_by_one_of_two_starters,
]
"""Store tests that take only `store`: drawers written and read, mentions resolved, the
migrations run, through TLS with the password."""


@pytest.mark.parametrize("case", STORE_SUITE, ids=lambda case: case.__name__)
def test_the_store_suite_runs_over_tls_with_a_password(
    secure_store: Neo4jStore, case: Callable[[Any], None]
) -> None:
    secure_store.wipe()
    case(secure_store)


@pytest.mark.usefixtures("trusted")
def test_a_verified_certificate_serves_a_routing_uri(secure_neo4j: Neo4jServer) -> None:
    store = Neo4jStore(uri(secure_neo4j, "neo4j+s"), "neo4j", PASSWORD, "neo4j")
    try:
        store.ping()
        assert store.server().product == "Neo4j"
        [row] = store.run_text("RETURN $word AS word", {"word": "verified"})
        assert row == {"word": "verified"}
    finally:
        store.close()


def refusal(call: Callable[[], object]) -> CastlegraphError:
    with pytest.raises(CastlegraphError) as caught:
        call()
    return caught.value


@pytest.mark.parametrize(
    "call",
    [lambda s: s.ping(), lambda s: s.apply_schema(), lambda s: s.run_text("RETURN 1", {})],
    ids=["ping", "apply_schema", "run_text"],
)
def test_a_wrong_password_is_refused_naming_the_settings_not_the_password(
    secure_neo4j: Neo4jServer, call: Callable[[Neo4jStore], object]
) -> None:
    address = uri(secure_neo4j, "bolt+ssc")
    store = Neo4jStore(address, "neo4j", WRONG_PASSWORD, "neo4j")
    try:
        error = refusal(lambda: call(store))
    finally:
        store.close()
    assert error.code == "graph::misconfigured"
    assert error.message == (
        f"Neo4j refused the credentials for user neo4j at {address}: {CREDENTIALS}"
    )
    assert not error.is_retryable()
    assert WRONG_PASSWORD not in error.log_text()


def test_plain_bolt_to_a_tls_only_server_says_to_use_tls(secure_neo4j: Neo4jServer) -> None:
    address = uri(secure_neo4j, "bolt")
    store = Neo4jStore(address, "neo4j", PASSWORD, "neo4j")
    try:
        error = refusal(store.ping)
    finally:
        store.close()
    assert error.code == "graph::unavailable"  # a server going down closes connections too
    assert error.message.startswith(
        "Neo4j closed the connection during the Bolt handshake: if the server takes TLS only, "
        "use bolt+s:// or neo4j+s://"
    )
    assert address.rsplit(":", 1)[1] not in error.message  # clients read it: no address


@pytest.mark.usefixtures("untrusted")
@pytest.mark.parametrize("scheme", ["bolt+s", "neo4j+s"])
def test_an_untrusted_certificate_is_refused_naming_the_ways_to_trust_it(
    secure_neo4j: Neo4jServer, scheme: str
) -> None:
    address = uri(secure_neo4j, scheme)
    store = Neo4jStore(address, "neo4j", PASSWORD, "neo4j")
    try:
        error = refusal(store.ping)
    finally:
        store.close()
    assert error.code == "graph::misconfigured"
    assert error.message.startswith(
        f"Neo4j at {address} presented a TLS certificate this machine does not trust "
        "(self-signed certificate): add its CA to the trusted ones (SSL_CERT_FILE), or accept "
        "a self-signed one with bolt+ssc:// or neo4j+ssc://"
    )


def neo4j_env(secure_neo4j: Neo4jServer, scheme: str, password: str) -> dict[str, str]:
    return {
        "CASTLEGRAPH_NEO4J_URI": uri(secure_neo4j, scheme),
        "CASTLEGRAPH_NEO4J_USER": "neo4j",
        "CASTLEGRAPH_NEO4J_PASSWORD": password,
    }


def test_doctor_names_refused_credentials(secure_neo4j: Neo4jServer, tmp_path: Path) -> None:
    result = cli(tmp_path / "data", "doctor", env=neo4j_env(secure_neo4j, "bolt+ssc", "x" * 12))
    assert result.exit_code == 1, result.output
    assert (
        f"Neo4j refused the credentials for user neo4j at {uri(secure_neo4j, 'bolt+ssc')}"
        in result.output
    )
    assert "x" * 12 not in result.output


def test_serve_refuses_to_start_with_a_wrong_password(
    secure_neo4j: Neo4jServer, tmp_path: Path
) -> None:
    service = Service(tmp_path / "data", env=neo4j_env(secure_neo4j, "bolt+ssc", WRONG_PASSWORD))
    try:
        status = service.process.wait(timeout=EXIT_SECONDS)
    except subprocess.TimeoutExpired:
        service.process.kill()
        service.process.wait()
        raise AssertionError(f"serve kept running:\n{service.output()}") from None
    assert status == 1, service.output()
    assert (
        f"castlegraph: Neo4j refused the credentials for user neo4j at "
        f"{uri(secure_neo4j, 'bolt+ssc')}: {CREDENTIALS}"
    ) in service.output()
    assert WRONG_PASSWORD not in service.output()


@pytest.mark.usefixtures("trusted")
def test_serve_starts_on_a_verified_tls_neo4j_with_the_password(
    secure_neo4j: Neo4jServer, secure_store: Neo4jStore, tmp_path: Path
) -> None:
    secure_store.wipe()  # no migration lease left by the suite above: serve would wait it out
    service = Service(tmp_path / "data", env=neo4j_env(secure_neo4j, "neo4j+s", PASSWORD))

    def graph_ready() -> bool:
        assert service.process.poll() is None, service.output()
        return "graph ready: neo4j, Neo4j 5" in service.output()

    def healthy() -> bool:
        try:
            return httpx.get(f"{service.url}/api/health", timeout=5).status_code == 200
        except httpx.TransportError:
            return False

    try:
        eventually(graph_ready, "serve connected, schema and migrations done", EXIT_SECONDS)
        eventually(healthy, "serve answers healthy", EXIT_SECONDS)
    finally:
        if service.process.poll() is None:
            service.stop(signal.SIGTERM)
    assert PASSWORD not in service.output()
