"""Checks on the test layout itself; the fixtures live next to the tests that use them:
`tests/store/conftest.py` (databases), `tests/api/conftest.py` (the app), `tests/e2e/conftest.py`
(processes and data directories)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    """`tests` is a package (so `tests.support` imports), which makes `tests/api` the package
    `tests.api`: it must never shadow the project's `api`."""
    import api  # noqa: PLC0415  # after pytest has set up sys.path

    if Path(api.__file__).resolve().parent != ROOT / "api":
        raise pytest.UsageError(f"`import api` resolves to {api.__file__}, not {ROOT / 'api'}")
