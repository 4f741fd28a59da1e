"""What a service's log tells an operator at start, and the level it logs at (design §8)."""

import json
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2 as httpx

from castlegraph.api import VERSION
from tests.support.processes import Service

SECRET = "start-log-secret-4242"


def json_lines(service: Service) -> list[dict[str, Any]]:
    return [json.loads(line) for line in service.output().splitlines() if line.startswith("{")]


def test_the_start_line_names_version_settings_sources_and_tokens_never_values(
    tmp_path: Path, data_dir: Path, spawn: Callable[..., Service]
) -> None:
    config = tmp_path / "castlegraph.toml"
    config.write_text("[dedup]\nnear_threshold = 0.95\n")
    service = spawn(
        data_dir,
        env={"CASTLEGRAPH_API_TOKENS": f"ops:{SECRET}", "CASTLEGRAPH_LOG_LEVEL": "info"},
        args=["--config", str(config), "--log-format", "json"],
    )
    service.wait_healthy()
    service.stop(signal.SIGTERM)

    [start] = [line for line in json_lines(service) if "starting" in line["message"]]
    assert start["version"] == VERSION
    assert start["config_file"] == str(config)
    assert {"CASTLEGRAPH_API_TOKENS", "CASTLEGRAPH_LOG_LEVEL"} <= set(start["environment"])
    assert (start["tokens"], start["log_level"]) == (True, "info")
    assert f"castlegraph {VERSION} starting: settings from file {config}" in start["message"]
    assert "tokens on (1)" in start["message"]
    assert SECRET not in service.output()


def test_the_log_level_setting_silences_what_is_below_it(
    data_dir: Path, spawn: Callable[..., Service]
) -> None:
    quiet = {"CASTLEGRAPH_LOG_LEVEL": "warning"}
    service = spawn(data_dir, env=quiet, args=["--log-format", "json"])
    service.wait_healthy()
    assert httpx.get(f"{service.url}/api/health").status_code == 200
    service.stop(signal.SIGTERM)

    levels = {line["level"] for line in json_lines(service)}
    assert levels <= {"warning", "error", "critical"}, service.output()
    assert "/api/health" not in service.output()  # the access lines are info
