"""design §8: typed settings, fixed environment names, refusing bad values by key."""

from pathlib import Path

import pytest
from pydantic import ValidationError

from castlegraph.api.service.settings import ApiSettings, Settings, load_settings


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no castlegraph.toml from the working directory
    import os  # noqa: PLC0415

    for name in list(os.environ):
        if name.startswith("CASTLEGRAPH_"):
            monkeypatch.delenv(name)


def test_defaults() -> None:
    settings = load_settings()
    assert (settings.dedup.enabled, settings.dedup.near_threshold) == (True, 0.9)
    assert settings.dedup.entity_fuzzy is True
    assert (settings.api.host, settings.api.port) == ("127.0.0.1", 8765)
    assert settings.graph.neo4j_uri is None
    assert settings.embeddings.provider == "none"


@pytest.mark.parametrize("value", ["0.2", "1.1", "NaN", "nan", "-1", "abc"])
def test_a_bad_near_threshold_refuses_to_start_naming_the_key(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("CASTLEGRAPH_DEDUP_NEAR_THRESHOLD", value)
    with pytest.raises(ValidationError) as refused:
        load_settings()
    assert "dedup.near_threshold" in str(refused.value)


@pytest.mark.parametrize("value", ["0.5", "1", "0.95"])
def test_the_threshold_range_is_inclusive(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("CASTLEGRAPH_DEDUP_NEAR_THRESHOLD", value)
    assert load_settings().dedup.near_threshold == float(value)


def test_environment_names_are_the_documented_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    environment = {
        "CASTLEGRAPH_DEDUP_ENABLED": "false",
        "CASTLEGRAPH_DEDUP_ENTITY_FUZZY": "false",
        "CASTLEGRAPH_HOST": "0.0.0.0",
        "CASTLEGRAPH_PORT": "9001",
        "CASTLEGRAPH_DATA_DIR": "/tmp/cg-data",
        "CASTLEGRAPH_NEO4J_URI": "neo4j://db:7687",
        "CASTLEGRAPH_NEO4J_USER": "u",
        "CASTLEGRAPH_NEO4J_PASSWORD": "p",
        "CASTLEGRAPH_NEO4J_DATABASE": "d",
        "CASTLEGRAPH_API_TOKENS": "a, b",
        "CASTLEGRAPH_EMBEDDINGS_DIMENSION": "384",
        "CASTLEGRAPH_MINE_ROOTS": "/srv/notes:/home/me/docs:",
        "CASTLEGRAPH_ALLOWED_HOSTS": "castle.example, Proxy.Example.",
        "CASTLEGRAPH_ALLOW_UNAUTHENTICATED": "true",
        "CASTLEGRAPH_MAX_QUEUED_JOBS": "5",
        "CASTLEGRAPH_NEO4J_RETRY_SECONDS": "7.5",
        "CASTLEGRAPH_JOB_LEASE_SECONDS": "12",
        "CASTLEGRAPH_NEO4J_MEMORY_INDEXES_ONLY": "true",
    }
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    settings = load_settings()
    assert (settings.dedup.enabled, settings.dedup.entity_fuzzy) == (False, False)
    assert (settings.api.host, settings.api.port) == ("0.0.0.0", 9001)
    assert settings.graph.data_dir == Path("/tmp/cg-data")
    graph = settings.graph
    assert (graph.neo4j_uri, graph.neo4j_user, graph.neo4j_database) == (
        "neo4j://db:7687",
        "u",
        "d",
    )
    assert graph.neo4j_password.get_secret_value() == "p"
    assert [t.get_secret_value() for t in settings.api.tokens] == ["a", "b"]
    assert settings.embeddings.dimension == 384
    assert settings.api.mine_roots == [Path("/srv/notes"), Path("/home/me/docs")]
    assert settings.api.allowed_hosts == ["castle.example", "proxy.example"]
    assert settings.api.allow_unauthenticated is True
    assert settings.api.max_queued_jobs == 5
    assert (graph.neo4j_retry_seconds, graph.job_lease_seconds) == (7.5, 12.0)
    assert graph.neo4j_memory_indexes_only is True


def test_memory_indexes_only_without_the_memory_indexes_refuses_to_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert load_settings().graph.neo4j_memory_indexes_only is False
    monkeypatch.setenv("CASTLEGRAPH_NEO4J_MEMORY_INDEXES_ONLY", "true")
    monkeypatch.setenv("CASTLEGRAPH_DEDUP_MEMORY_INDEX", "false")
    with pytest.raises(ValidationError, match=r"graph\.neo4j_memory_indexes_only needs dedup"):
        load_settings()
    monkeypatch.setenv("CASTLEGRAPH_DEDUP_MEMORY_INDEX", "true")
    assert load_settings().graph.neo4j_memory_indexes_only is True


@pytest.mark.parametrize(
    ("name", "key", "value"),
    [
        ("CASTLEGRAPH_JOB_LEASE_SECONDS", "graph.job_lease_seconds", "2.9"),
        ("CASTLEGRAPH_JOB_LEASE_SECONDS", "graph.job_lease_seconds", "3601"),
        ("CASTLEGRAPH_JOB_LEASE_SECONDS", "graph.job_lease_seconds", "inf"),
        ("CASTLEGRAPH_NEO4J_RETRY_SECONDS", "graph.neo4j_retry_seconds", "-1"),
        ("CASTLEGRAPH_NEO4J_RETRY_SECONDS", "graph.neo4j_retry_seconds", "NaN"),
        ("CASTLEGRAPH_NEO4J_RETRY_SECONDS", "graph.neo4j_retry_seconds", "601"),
    ],
)
def test_a_lease_or_retry_time_out_of_range_refuses_to_start_naming_the_key(
    monkeypatch: pytest.MonkeyPatch, name: str, key: str, value: str
) -> None:
    graph = load_settings().graph
    assert (graph.job_lease_seconds, graph.neo4j_retry_seconds) == (30.0, 30.0)
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=key.replace(".", r"\.")):
        load_settings()


@pytest.mark.parametrize("value", ["0", "-1", "many", "10001"])
def test_a_bad_job_bound_refuses_to_start_naming_the_key(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    assert load_settings().api.max_queued_jobs == 20
    monkeypatch.setenv("CASTLEGRAPH_MAX_QUEUED_JOBS", value)
    with pytest.raises(ValidationError, match=r"api\.max_queued_jobs"):
        load_settings()


def test_no_mining_roots_by_default_and_relative_ones_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CASTLEGRAPH_MINE_ROOTS", raising=False)
    assert load_settings().api.mine_roots == []
    monkeypatch.setenv("CASTLEGRAPH_MINE_ROOTS", "notes")
    with pytest.raises(ValidationError, match=r"api\.mine_roots must be absolute paths, not notes"):
        load_settings()


def test_file_then_environment_then_flags(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "custom.toml"
    api = "[api]\nport = 9100\nhost = '10.0.0.1'\nallow_unauthenticated = true\n"
    config.write_text("[dedup]\nnear_threshold = 0.8\n" + api)
    monkeypatch.setenv("CASTLEGRAPH_CONFIG", str(config))
    assert load_settings().dedup.near_threshold == 0.8
    monkeypatch.setenv("CASTLEGRAPH_PORT", "9200")
    assert load_settings().api.port == 9200
    flagged = load_settings(api={"port": 9300})
    assert (flagged.api.port, flagged.api.host) == (9300, "10.0.0.1")


def test_a_bad_value_in_the_file_names_its_key(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = tmp_path / "castlegraph.toml"
    config.write_text("[dedup]\nnear_threshold = 1.5\n")
    monkeypatch.setenv("CASTLEGRAPH_CONFIG", str(config))
    with pytest.raises(ValidationError, match=r"dedup\.near_threshold"):
        load_settings()


def test_unknown_keys_in_the_file_are_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = tmp_path / "castlegraph.toml"
    config.write_text("[dedup]\nnear_treshold = 0.9\n")
    monkeypatch.setenv("CASTLEGRAPH_CONFIG", str(config))
    with pytest.raises(ValidationError, match="near_treshold"):
        Settings()


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "10.0.0.1", "castle.example", ""])
def test_listening_beyond_loopback_without_tokens_refuses_naming_the_token_setting(
    host: str,
) -> None:
    with pytest.raises(ValidationError, match="CASTLEGRAPH_API_TOKENS") as refused:
        load_settings(api={"host": host})
    assert "CASTLEGRAPH_ALLOW_UNAUTHENTICATED" in str(refused.value)


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
def test_loopback_needs_no_tokens(host: str) -> None:
    assert load_settings(api={"host": host}).api.exposed_without_tokens is False


def test_tokens_or_the_explicit_flag_allow_every_interface() -> None:
    with_tokens = load_settings(api={"host": "0.0.0.0", "tokens": ["secret"]})
    assert with_tokens.api.exposed_without_tokens is False
    flagged = load_settings(api={"host": "0.0.0.0", "allow_unauthenticated": True})
    assert flagged.api.exposed_without_tokens is True


def test_own_hosts_are_loopback_the_listen_address_and_the_allowed_names() -> None:
    every = load_settings(api={"host": "0.0.0.0", "tokens": ["s"], "allowed_hosts": ["a.example"]})
    assert every.api.own_hosts() == {"localhost", "127.0.0.1", "::1", "a.example"}
    named = load_settings(api={"host": "10.0.0.1", "tokens": ["s"]})
    assert named.api.own_hosts() == {"localhost", "127.0.0.1", "::1", "10.0.0.1"}


def test_an_allowed_host_with_a_port_is_refused() -> None:
    with pytest.raises(ValidationError, match=r"api\.allowed_hosts"):
        load_settings(api={"allowed_hosts": ["castle.example:8765"]})


def test_allowed_origins_from_the_environment_as_browsers_spell_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CASTLEGRAPH_ALLOWED_ORIGINS", raising=False)
    assert load_settings().api.allowed_origins == []
    monkeypatch.setenv(
        "CASTLEGRAPH_ALLOWED_ORIGINS", "HTTPS://Curator.Example:443/, http://[::1]:3000,"
    )
    assert load_settings().api.allowed_origins == ["https://curator.example", "http://[::1]:3000"]


@pytest.mark.parametrize("origin", ["null", "curator.example", "https://c.example/page", "ftp://c"])
def test_an_allowed_origin_that_is_not_an_origin_is_refused(origin: str) -> None:
    with pytest.raises(ValidationError, match=r"api\.allowed_origins: .* is not an origin"):
        ApiSettings(allowed_origins=[origin])


def test_the_log_level_is_info_unless_set_in_any_case(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings().api.log_level == "info"
    monkeypatch.setenv("CASTLEGRAPH_LOG_LEVEL", "WARNING")
    assert load_settings().api.log_level == "warning"


@pytest.mark.parametrize("level", ["verbose", "critical", "10"])
def test_an_unknown_log_level_refuses_to_start_naming_the_key(
    monkeypatch: pytest.MonkeyPatch, level: str
) -> None:
    monkeypatch.setenv("CASTLEGRAPH_LOG_LEVEL", level)
    with pytest.raises(ValidationError, match=r"api\.log_level"):
        load_settings()
