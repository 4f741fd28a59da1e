"""The Dockerfile and docker-compose.yml say what the deployment needs (no Docker engine here).

The Dockerfile is read instruction by instruction (continuation lines joined); the compose file
with PyYAML. Environment names must be settings castlegraph reads
(`api.service.settings.ENVIRONMENT`), because a misspelt one is silently ignored by the container.
"""

import json
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from castlegraph.api.mcp.guide import GUIDE_FILE
from castlegraph.api.service.settings import CONFIG_ENV, DEFAULT_PORT, ENVIRONMENT, load_settings

ROOT = Path(__file__).resolve().parents[2]
KNOWN = set(ENVIRONMENT) | {CONFIG_ENV}
PYTHON_ENV = {
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONUNBUFFERED",
    "PIP_NO_CACHE_DIR",
    "PIP_DISABLE_PIP_VERSION_CHECK",
}


def instructions() -> list[tuple[str, str]]:
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    found = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            keyword, _, rest = stripped.partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def arguments(rest: str) -> list[str]:
    """An exec-form (`["a", "b"]`) or shell-form argument list."""
    return list(json.loads(rest)) if rest.startswith("[") else shlex.split(rest)


def only(keyword: str) -> str:
    [rest] = [rest for kw, rest in instructions() if kw == keyword]
    return rest


def env_names(rest: str) -> set[str]:
    return {word.split("=", 1)[0] for word in shlex.split(rest) if "=" in word}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text("utf-8"))
    return loaded


def test_the_image_starts_from_python_3_11_slim() -> None:
    assert instructions()[0] == ("FROM", "python:3.11-slim")


def test_the_service_runs_as_a_named_user_that_is_not_root() -> None:
    user = only("USER")
    assert user.split(":")[0] not in {"root", "0", ""}
    last_user = max(i for i, (kw, _) in enumerate(instructions()) if kw == "USER")
    last_run = max(i for i, (kw, _) in enumerate(instructions()) if kw == "RUN")
    assert last_user > last_run  # nothing runs as root after the switch


def test_the_command_serves_on_every_interface() -> None:
    command = arguments(only("CMD"))
    assert command[:2] == ["castlegraph", "serve"]
    assert command[command.index("--host") + 1] == "0.0.0.0"
    assert not any(kw == "ENTRYPOINT" for kw, _ in instructions())


def test_the_port_volume_and_data_dir() -> None:
    assert only("EXPOSE").split() == [str(DEFAULT_PORT)]
    assert arguments(only("VOLUME")) == ["/data"]
    env = " ".join(rest for kw, rest in instructions() if kw == "ENV")
    assert "CASTLEGRAPH_DATA_DIR=/data" in shlex.split(env)
    assert env_names(env) - KNOWN == PYTHON_ENV  # the rest are settings castlegraph reads


def test_the_healthcheck_asks_the_health_route() -> None:
    options, _, command = only("HEALTHCHECK").partition(" CMD ")
    assert "--interval=" in options
    assert "/api/health" in " ".join(arguments(command.strip()))


def test_the_project_is_installed_from_its_sources() -> None:
    copied = {arguments(rest)[0] for kw, rest in instructions() if kw == "COPY"}
    assert {"api", "graph", "resolver", "cypher", "castlegraph", "pyproject.toml"} <= copied
    assert "core" in copied  # the compiled core's sources: built where the image has Rust
    assert any(kw == "RUN" and "pip install ." in rest for kw, rest in instructions())


def test_the_agent_guide_ships_in_the_package_and_the_image() -> None:
    """The MCP server serves docs/agent-guide.md from its own package (`castlegraph://agent-
    guide`): the package's link resolves to the guide, package data installs it (a wheel holds
    the file, not the link), and the image copies it, which .dockerignore must let through."""
    link = ROOT / "api" / "mcp" / GUIDE_FILE
    assert link.resolve() == ROOT / "docs" / "agent-guide.md"
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert GUIDE_FILE in pyproject["tool"]["setuptools"]["package-data"]["castlegraph.api.mcp"]
    copied = [arguments(rest) for kw, rest in instructions() if kw == "COPY"]
    assert ["docs/agent-guide.md", "./docs/agent-guide.md"] in copied
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert "docs" in ignored
    assert ignored.index("!docs/agent-guide.md") > ignored.index("docs")  # the exception wins


def test_compose_runs_castlegraph_on_neo4j_5_26(compose: dict[str, Any]) -> None:
    neo4j = compose["services"]["neo4j"]
    assert neo4j["image"] == "neo4j:5.26"
    assert neo4j["environment"]["NEO4J_AUTH"].startswith("neo4j/${NEO4J_PASSWORD")
    assert "cypher-shell" in " ".join(neo4j["healthcheck"]["test"])
    assert any(volume.endswith(":/data") for volume in neo4j["volumes"])

    service = compose["services"]["castlegraph"]
    assert service["depends_on"] == {"neo4j": {"condition": "service_healthy"}}
    assert "/api/health" in " ".join(service["healthcheck"]["test"])
    assert service["environment"]["CASTLEGRAPH_NEO4J_URI"] == "bolt://neo4j:7687"
    assert service["environment"]["CASTLEGRAPH_DATA_DIR"] == "/data"
    assert any(volume.endswith(":/data") for volume in service["volumes"])
    assert f"{DEFAULT_PORT}:{DEFAULT_PORT}" in service["ports"]
    named = {volume.split(":")[0] for s in compose["services"].values() for volume in s["volumes"]}
    assert named <= set(compose["volumes"])


def test_compose_sets_only_real_settings(compose: dict[str, Any]) -> None:
    names = set(compose["services"]["castlegraph"]["environment"])
    assert names <= KNOWN, names - KNOWN
    required = {"CASTLEGRAPH_NEO4J_URI", "CASTLEGRAPH_NEO4J_USER", "CASTLEGRAPH_NEO4J_PASSWORD"}
    assert required <= names


def dockerfile_env() -> dict[str, str]:
    env = " ".join(rest for kw, rest in instructions() if kw == "ENV")
    return dict(word.split("=", 1) for word in shlex.split(env) if "=" in word)


def interpolated(value: str, shell: dict[str, str]) -> str:
    """Compose's `${NAME:-default}` and `${NAME:?message}` (refused when NAME is unset or empty)."""

    def substitute(match: re.Match[str]) -> str:
        name, operator, rest = match.group(1), match.group(2), match.group(3)
        if shell.get(name):
            return shell[name]
        if operator == ":?":
            raise LookupError(rest)
        return rest

    return re.sub(r"\$\{(\w+)(:-|:\?)([^}]*)\}", substitute, value)


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    monkeypatch.chdir(tmp_path)  # no castlegraph.toml
    for name in [*KNOWN]:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_the_image_listens_everywhere_only_with_tokens(
    clean_environment: pytest.MonkeyPatch,
) -> None:
    env = dockerfile_env()
    assert "CASTLEGRAPH_ALLOW_UNAUTHENTICATED" not in env
    for name, value in env.items():
        clean_environment.setenv(name, value)
    host = arguments(only("CMD"))[arguments(only("CMD")).index("--host") + 1]
    with pytest.raises(ValidationError, match="CASTLEGRAPH_API_TOKENS"):
        load_settings(api={"host": host})  # `docker run` without a token refuses to start
    clean_environment.setenv("CASTLEGRAPH_API_TOKENS", "secret")
    assert "localhost" in load_settings(api={"host": host}).api.own_hosts()  # -p 8765:8765


def test_compose_requires_tokens_and_allows_its_service_name(
    compose: dict[str, Any], clean_environment: pytest.MonkeyPatch
) -> None:
    environment = compose["services"]["castlegraph"]["environment"]
    assert "CASTLEGRAPH_ALLOW_UNAUTHENTICATED" not in environment
    shell = {"NEO4J_PASSWORD": "pw"}
    with pytest.raises(LookupError, match="CASTLEGRAPH_API_TOKENS"):
        interpolated(environment["CASTLEGRAPH_API_TOKENS"], shell)
    shell |= {"CASTLEGRAPH_API_TOKENS": "secret", "CASTLEGRAPH_ALLOWED_HOSTS": "proxy.example"}
    for name, value in environment.items():
        clean_environment.setenv(name, interpolated(str(value), shell))
    api = load_settings().api
    assert (api.host, [token.get_secret_value() for token in api.tokens]) == ("0.0.0.0", ["secret"])
    assert {"castlegraph", "proxy.example", "localhost"} <= api.own_hosts()
    clean_environment.setenv(
        "CASTLEGRAPH_ALLOWED_HOSTS", interpolated(environment["CASTLEGRAPH_ALLOWED_HOSTS"], {})
    )
    assert load_settings().api.allowed_hosts == ["castlegraph"]
