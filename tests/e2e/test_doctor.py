"""`castlegraph doctor` against real data directories, a real service, and Neo4j's answers.

Neo4j's side: an unreachable URI through the command (the password never shows), and the
session's real Neo4j, whose schema doctor compares by name and state.
"""

import importlib.metadata
import json
import platform
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import Result

from castlegraph.api.service import doctor
from castlegraph.api.service.settings import load_settings
from castlegraph.graph.backends import server
from castlegraph.graph.backends.neo4j_store import Neo4jStore
from castlegraph.graph.schema.migrations import MIGRATIONS
from castlegraph.resolver import core
from tests.support.backends import neo4j_backend
from tests.support.cli_runner import cli
from tests.support.processes import Service
from tests.support.seeding import opened_graph

NO_SERVICE = {"CASTLEGRAPH_PORT": "9"}  # discard: nothing answers there
RUST_CODEC_MACHINES = {"x86_64", "AMD64", "aarch64", "arm64"}
"""Where pyproject.toml installs the Neo4j driver's Rust extensions (`neo4j-rust-ext`)."""


def checks(result: Result) -> dict[str, tuple[str, str]]:
    answer = json.loads(result.stdout)
    assert answer["ok"] is (result.exit_code == 0)
    return {
        c["name"]: (c["status"], c["message"] + " " + (c["fix"] or "")) for c in answer["checks"]
    }


def test_doctor_on_a_fresh_then_a_migrated_data_directory(data_dir: Path) -> None:
    fresh = cli(data_dir, "doctor", "--json", env=NO_SERVICE)
    assert fresh.exit_code == 0, fresh.output
    statuses = {name: status for name, (status, _) in checks(fresh).items()}
    assert statuses == {
        "settings": "ok",
        "backend": "ok",
        "data directory": "ok",
        "database": "skip",
        "core": "ok",
        "embeddings": "ok",
        "service": "skip",
    }
    cli(data_dir, "migrate")
    ready = cli(data_dir, "doctor", env=NO_SERVICE)
    assert ready.exit_code == 0, ready.output
    # no candidate indexes of the database's own while the memory ones serve (design §5.4)
    assert "✔ schema          all 24 constraints and indexes are in place" in ready.stdout
    assert f"✔ migrations      {len(MIGRATIONS)} applied, none pending" in ready.stdout
    assert ready.stdout.endswith("all good\n")


def test_doctor_expects_the_candidate_indexes_with_the_memory_indexes_off(data_dir: Path) -> None:
    cli(data_dir, "migrate")
    off = {**NO_SERVICE, "CASTLEGRAPH_DEDUP_MEMORY_INDEX": "false"}
    before = checks(cli(data_dir, "doctor", "--json", env=off))
    assert before["schema"][0] == "fail"
    assert "missing drawer_terms, entity_dkeys" in before["schema"][1]
    cli(data_dir, "migrate", env=off)  # applies the schema as a service with them off would
    after = cli(data_dir, "doctor", env=off)
    assert after.exit_code == 0, after.output
    assert "✔ schema          all 26 constraints and indexes are in place" in after.stdout


def test_doctor_finds_a_missing_index_and_a_pending_migration(data_dir: Path) -> None:
    cli(data_dir, "migrate")
    with opened_graph(data_dir) as store:
        store.run_text("DROP INDEX ON :Job(status)", {})
        store.run_text("MATCH (m:Migration {version: 3}) DELETE m", {})
    result = cli(data_dir, "doctor", "--json", env=NO_SERVICE)
    assert result.exit_code == 1
    found = checks(result)
    assert found["schema"][0] == "fail" and "missing job_status" in found["schema"][1]
    assert found["migrations"][0] == "fail"
    assert "pending: 3 (derived keys" in found["migrations"][1]
    assert "castlegraph migrate" in found["migrations"][1]


def test_doctor_reports_invalid_settings(data_dir: Path) -> None:
    env = {"CASTLEGRAPH_DEDUP_NEAR_THRESHOLD": "2"}
    result = cli(data_dir, "doctor", env=env)
    assert result.exit_code == 1
    assert result.stdout.startswith("✘ settings  invalid (")
    assert "dedup.near_threshold" in result.stdout


def test_doctor_never_prints_the_neo4j_password(data_dir: Path) -> None:
    env = {
        "CASTLEGRAPH_NEO4J_URI": "bolt://neo4j:uri-secret@127.0.0.1:9",
        "CASTLEGRAPH_NEO4J_PASSWORD": "pw-secret",
        "CASTLEGRAPH_PORT": "9",
    }
    result = cli(data_dir, "doctor", "--json", env=env)
    assert result.exit_code == 1
    found = checks(result)
    assert found["backend"][1].startswith("Neo4j at bolt://neo4j@127.0.0.1:9 ")
    assert found["database"][0] == "fail"
    assert "secret" not in result.output


def test_doctor_names_the_neo4j_driver_and_whether_its_codec_is_rust(data_dir: Path) -> None:
    env = {"CASTLEGRAPH_NEO4J_URI": "bolt://127.0.0.1:9", **NO_SERVICE}
    result = cli(data_dir, "doctor", "--json", env=env)
    backend = checks(result)["backend"][1].strip()
    driver = importlib.metadata.version("neo4j")
    if platform.machine() in RUST_CODEC_MACHINES:
        assert backend.endswith(f"; driver {driver} with its Rust extensions")
    else:
        assert f"; driver {driver} in pure Python (pip install neo4j-rust-ext" in backend


@pytest.mark.slow
def test_doctor_asks_the_service_that_holds_the_data_directory(
    data_dir: Path, spawn: Callable[..., Service]
) -> None:
    service = spawn(data_dir)
    service.wait_healthy()
    # The settings name a port where nothing listens: doctor asks the service where it recorded
    # it listens, beside the data directory's lock, and finds it healthy.
    result = cli(data_dir, "doctor", "--json", env=NO_SERVICE)
    assert result.exit_code == 0, result.output
    found = checks(result)
    assert found["database"] == (
        "ok",
        "a running service holds the data directory; asked it over HTTP ",
    )
    status, message = found["service"]
    assert status == "ok"
    assert message.startswith(f"a service answers at {service.url}: healthy, on embedded FalkorDB")
    running = core.running()  # the service chose from the same CASTLEGRAPH_CORE as this session
    assert message.endswith(f", {running.name} core {running.version} ")
    assert found["core"] == ("ok", f"{doctor.core_check(load_settings()).message} ")

    named = cli(None, "doctor", "--url", service.url, "--json", env=NO_SERVICE)
    assert named.exit_code == 0, named.output
    assert {name: status for name, (status, _) in checks(named).items()} == {
        "settings": "ok",
        "database": "ok",
        "schema": "ok",
        "migrations": "ok",
        "service": "ok",
    }
    assert checks(named)["database"][1].startswith(f"the service at {service.url} (--url)")
    service.stop(signal.SIGTERM)


def test_doctor_names_what_a_silent_service_may_be(data_dir: Path) -> None:
    """`--url` that nothing answers, and a data directory locked by a process that is no
    service (an in-process command): neither is called a hung service."""
    named = cli(None, "doctor", "--url", "http://127.0.0.1:9", "--json")
    assert named.exit_code == 1
    assert checks(named)["service"] == (
        "fail",
        "no service answers at http://127.0.0.1:9, though it was named with --url check the "
        "URL, and that `castlegraph serve` runs there",
    )
    with opened_graph(data_dir):  # this process holds the data directory, recording nothing
        held = cli(data_dir, "doctor", "--json", env=NO_SERVICE)
    assert held.exit_code == 1
    status, message = checks(held)["service"]
    assert status == "fail"
    assert "the data directory is locked and no service recorded where it listens" in message
    assert "hung" not in message


def test_embeddings_provider_must_be_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(embeddings={"provider": "sentence-transformers"})
    monkeypatch.setattr(doctor.importlib.util, "find_spec", lambda name: None)
    check = doctor.embeddings_check(settings)
    assert (check.status, check.fix) == (
        "fail",
        "pip install 'castlegraph[embeddings]' (a CPU build of torch first), or set "
        "CASTLEGRAPH_EMBEDDINGS_PROVIDER=none",
    )


def test_safe_uri_drops_only_the_password() -> None:
    assert doctor.safe_uri("neo4j+s://u:p@db.example:7687/x") == "neo4j+s://u@db.example:7687/x"
    assert doctor.safe_uri("bolt://db:7687") == "bolt://db:7687"


@pytest.fixture
def neo4j_graph(neo4j_address: tuple[str, str, str]) -> Iterator[Neo4jStore]:
    """The session's Neo4j, wiped; every index created again afterwards for the tests after."""
    store = Neo4jStore(*neo4j_address, "neo4j")
    try:
        store.wipe()
        yield store
    finally:
        store.apply_schema()
        store.close()


@pytest.mark.neo4j
def test_doctor_on_neo4j_compares_its_schema_by_name_and_state(
    data_dir: Path, neo4j_address: tuple[str, str, str], neo4j_graph: Neo4jStore
) -> None:
    env = {**NO_SERVICE, **neo4j_backend(neo4j_address).env}
    assert cli(data_dir, "migrate", env=env).exit_code == 0
    ready = cli(data_dir, "doctor", "--json", env=env)
    assert ready.exit_code == 0, ready.output
    found = checks(ready)
    reported = neo4j_graph.server()
    assert (reported.product, reported.edition) == ("Neo4j", "community")
    uri = neo4j_address[0]
    assert found["database"] == ("ok", f"{uri} answers: {reported} ")  # no fix after it
    assert found["schema"][0] == found["migrations"][0] == "ok"
    assert found["schema"][1].startswith("all 31 constraints and indexes are in place")
    assert found["migrations"][1].startswith(f"{len(MIGRATIONS)} applied, none pending")
    neo4j_graph.run_text("DROP INDEX entity_key", {})
    broken = cli(data_dir, "doctor", "--json", env=env)
    assert broken.exit_code == 1
    status, message = checks(broken)["schema"]
    assert status == "fail"
    assert "entity_key" in message


@pytest.mark.neo4j
@pytest.mark.usefixtures("neo4j_graph")
def test_doctor_on_neo4j_with_memory_indexes_only_expects_no_candidate_index(
    data_dir: Path, neo4j_address: tuple[str, str, str]
) -> None:
    """`graph.neo4j_memory_indexes_only`: `migrate` drops the two candidate indexes, which
    doctor then expects absent; without the setting it names them missing."""
    env = {**NO_SERVICE, **neo4j_backend(neo4j_address).env}
    only = {**env, "CASTLEGRAPH_NEO4J_MEMORY_INDEXES_ONLY": "true"}
    assert cli(data_dir, "migrate", env=only).exit_code == 0
    ready = cli(data_dir, "doctor", "--json", env=only)
    assert ready.exit_code == 0, ready.output
    assert checks(ready)["schema"][1].startswith("all 29 constraints and indexes are in place")
    without = cli(data_dir, "doctor", "--json", env=env)
    assert without.exit_code == 1
    status, message = checks(without)["schema"]
    assert status == "fail"
    assert "drawer_terms" in message and "entity_dkeys" in message


@pytest.mark.neo4j
def test_doctor_names_a_neo4j_older_than_needed(
    data_dir: Path, neo4j_address: tuple[str, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session's Neo4j stands for an old one: the minimum is raised above it."""
    uri, user, password = neo4j_address
    store = Neo4jStore(uri, user, password, "neo4j")
    found = store.server().version
    store.close()
    monkeypatch.setattr(server, "NEO4J_MINIMUM", (2100, 1))
    env = {
        **NO_SERVICE,
        "CASTLEGRAPH_NEO4J_URI": uri,
        "CASTLEGRAPH_NEO4J_USER": user,
        "CASTLEGRAPH_NEO4J_PASSWORD": password,
    }
    result = cli(data_dir, "doctor", "--json", env=env)
    assert result.exit_code == 1
    status, message = checks(result)["database"]
    assert status == "fail"
    assert message == (
        f"{uri} answers, but castlegraph needs Neo4j 2100.1 or later; the server reports "
        f"version {found!r} (community edition) upgrade the Neo4j server to 2100.1 or later"
    )
