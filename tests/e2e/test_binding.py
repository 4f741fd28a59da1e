"""design §8.1 on a real `castlegraph serve`: beyond loopback only with tokens (or said out
loud), and only for requests that name the service."""

import signal
from collections.abc import Callable
from pathlib import Path

import httpx2 as httpx
import pytest

from tests.support.processes import Service

pytestmark = pytest.mark.slow

EVERY_INTERFACE = ["--host", "0.0.0.0"]
NO_TOKENS = {"CASTLEGRAPH_API_TOKENS": "", "CASTLEGRAPH_ALLOW_UNAUTHENTICATED": ""}
WARNING = "without tokens (api.allow_unauthenticated)"


def test_every_interface_without_tokens_is_refused_naming_the_token_setting(
    data_dir: Path, spawn: Callable[..., Service]
) -> None:
    service = spawn(data_dir, env=NO_TOKENS, args=EVERY_INTERFACE)
    assert service.process.wait(timeout=30) == 2, service.output()
    assert "CASTLEGRAPH_API_TOKENS" in service.output()
    assert "CASTLEGRAPH_ALLOW_UNAUTHENTICATED" in service.output()
    assert "Traceback" not in service.output()
    assert not data_dir.exists()  # refused before the database was started


def test_allow_unauthenticated_starts_and_warns(
    data_dir: Path, spawn: Callable[..., Service]
) -> None:
    flagged = {**NO_TOKENS, "CASTLEGRAPH_ALLOW_UNAUTHENTICATED": "true"}
    service = spawn(data_dir, env=flagged, args=EVERY_INTERFACE)
    service.wait_healthy()
    assert WARNING in service.output()
    assert "CASTLEGRAPH_API_TOKENS" in service.output()
    written = httpx.post(f"{service.url}/api/wings/w/rooms/r/drawers", json={"content": "open"})
    assert written.status_code == 201
    service.stop(signal.SIGTERM)

    again = spawn(data_dir, env=flagged, args=EVERY_INTERFACE)  # the warning at every start
    again.wait_healthy()
    assert WARNING in again.output()
    again.stop(signal.SIGTERM)


def test_loopback_without_tokens_starts_without_a_warning(
    data_dir: Path, spawn: Callable[..., Service]
) -> None:
    service = spawn(data_dir, env=NO_TOKENS)
    service.wait_healthy()
    assert WARNING not in service.output()
    service.stop(signal.SIGTERM)


def test_with_tokens_every_interface_serves_only_its_own_names(
    data_dir: Path, spawn: Callable[..., Service]
) -> None:
    env = {
        **NO_TOKENS,
        "CASTLEGRAPH_API_TOKENS": "s3cret",
        "CASTLEGRAPH_ALLOWED_HOSTS": "castle.example",
    }
    service = spawn(data_dir, env=env, args=EVERY_INTERFACE)
    service.wait_healthy()
    assert WARNING not in service.output()
    token = {"Authorization": "Bearer s3cret"}
    named = {"Host": f"castle.example:{service.port}"}
    assert httpx.get(f"{service.url}/api/jobs", headers=token | named).status_code == 200
    assert httpx.get(f"{service.url}/openapi.json", headers=named).status_code == 401
    rebound = httpx.get(f"{service.url}/api/health", headers={"Host": "evil.example"})
    assert (rebound.status_code, rebound.json()["error"]["code"]) == (403, "auth::forbidden")
    service.stop(signal.SIGTERM)
