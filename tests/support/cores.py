"""The cores a test can run on (`resolver.core`): which are here, and a way back to the one the
session chose after a test chose another."""

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from castlegraph.resolver import core

NATIVE_BUILT = core.native_module() is not None
needs_native = pytest.mark.skipif(
    not NATIVE_BUILT, reason="the compiled core is not built here (no Rust toolchain at install)"
)


@contextmanager
def chosen_back() -> Iterator[None]:
    """Whatever a test chooses, the session's core runs again after it."""
    before = core.running().name
    try:
        yield
    finally:
        core.choose(before)


@contextmanager
def native_missing(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The compiled core as on a machine where it was never built: its import fails."""
    with monkeypatch.context() as patch:
        patch.setitem(sys.modules, core.NATIVE_MODULE, None)  # None: `import` raises
        yield
