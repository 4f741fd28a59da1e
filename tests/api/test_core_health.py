"""The start of a service chooses the core its rules run on (`resolver.core`) and says which:
in its log and, to a caller with a token, in `GET /api/health`."""

import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from castlegraph.resolver import core
from tests.support.app import app_settings, running_app
from tests.support.cores import chosen_back


def test_health_names_the_core_the_rules_run_on(client: TestClient) -> None:
    body = client.get("/api/health").json()  # no tokens configured: everything is shown
    running = core.running()
    assert (body["core"], body["core_version"]) == (running.name, running.version)
    assert body["core"] in {"native", "python"} and body["core_version"]


def test_a_service_set_to_the_python_core_runs_it_and_logs_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = app_settings(tmp_path, dedup={"core": "python"})
    with (
        chosen_back(),
        caplog.at_level(logging.INFO, logger="castlegraph"),
        running_app(settings) as client,
    ):
        body = client.get("/api/health").json()
        running = core.running()
    assert running.name == "python"
    assert (body["core"], body["core_version"]) == ("python", running.version)
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("rules' core:")]
    assert said == [f"rules' core: python {running.version} (core = python)"]


def test_a_stranger_is_not_told_the_core(tmp_path: Path) -> None:
    settings = app_settings(tmp_path, api={"tokens": ["admin-secret"]})
    with chosen_back(), running_app(settings) as client:
        assert client.get("/api/health").json() == {"status": "ok"}
        told = client.get("/api/health", headers={"Authorization": "Bearer admin-secret"})
    assert told.json()["core"] == core.running().name
