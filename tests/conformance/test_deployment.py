"""The Dockerfile and docker-compose.yml say what the deployment needs (no Docker engine here).

The Dockerfile is read instruction by instruction (continuation lines joined); the compose file
with PyYAML. Environment names must be settings castlegraph reads
(`api.service.settings.ENVIRONMENT`), because a misspelt one is silently ignored by the container.
"""

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from api.service.settings import CONFIG_ENV, DEFAULT_PORT, ENVIRONMENT

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
    assert {"api", "graph", "resolver", "cypher", "pyproject.toml"} <= copied
    assert any(kw == "RUN" and "pip install ." in rest for kw, rest in instructions())


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
