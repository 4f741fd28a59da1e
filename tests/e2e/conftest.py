"""Fixtures of the end-to-end tests: real `castlegraph` processes and their data directories.

- `spawn`: starts `castlegraph serve` processes; whatever a failed test left running is killed.
- `data_dir`: a data directory of the test's own, not yet created (the CLI or service makes it).
- `anyio_backend`: the MCP client sessions run on asyncio.
"""

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.processes import Service


@pytest.fixture
def spawn() -> Iterator[Callable[..., Service]]:
    """Start services; whatever a failed test left running is killed afterwards."""
    started: list[Service] = []

    def start(
        data_dir: Path,
        log_dir: Path | None = None,
        env: dict[str, str] | None = None,
        args: list[str] | None = None,
    ) -> Service:
        started.append(Service(data_dir, log_dir, env, args))
        return started[-1]

    yield start
    for service in started:
        if service.process.poll() is None:
            service.process.kill()
            service.process.wait()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
