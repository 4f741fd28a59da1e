"""A service's start on the embedded database when the child it started leaves a statement of
the start unanswered (FalkorDB 4.16 has, rarely, deadlocked on its schema's `CREATE INDEX`
right after starting): the start stops that child and starts the database once more."""

import functools
import logging
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from castlegraph.api.service.runtime import Runtime
from castlegraph.graph.backends import embedded as embedded_module
from castlegraph.graph.backends import opener
from castlegraph.graph.backends.embedded import EmbeddedFalkorDB
from castlegraph.graph.backends.falkordb_store import FalkorStore
from tests.support.app import app_settings
from tests.support.processes import wait_dead

pytestmark = pytest.mark.slow


def test_a_start_whose_schema_the_child_leaves_unanswered_is_made_once_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    children: list[EmbeddedFalkorDB] = []
    real_start = EmbeddedFalkorDB.start

    def start(self: EmbeddedFalkorDB) -> None:
        children.append(self)
        real_start(self)

    real_apply_schema = FalkorStore.apply_schema
    hung: list[int] = []

    def apply_schema(self: FalkorStore, **options: Any) -> None:
        pid = children[-1].pid
        assert pid is not None
        if len(children) == 1:  # the first child hangs, as the deadlock leaves it
            hung.append(pid)
            os.kill(pid, signal.SIGSTOP)
        real_apply_schema(self, **options)

    monkeypatch.setattr(EmbeddedFalkorDB, "start", start)
    monkeypatch.setattr(FalkorStore, "apply_schema", apply_schema)
    monkeypatch.setattr(opener, "FalkorStore", functools.partial(FalkorStore, socket_timeout=2.0))
    monkeypatch.setattr(embedded_module, "STOP_TIMEOUT_SECONDS", 1.0)
    runtime = Runtime(app_settings(tmp_path / "data"))
    with caplog.at_level(logging.WARNING, logger="castlegraph"):
        runtime.start()
    try:
        assert runtime.ready
        assert len(children) == 2
        assert wait_dead(hung[0])  # stopped by the failed start
        assert children[0].pid is None
        assert runtime.backend is not None and runtime.backend.embedded is children[1]
        assert runtime.store.run_text("RETURN 1 AS one", {}) == [{"one": 1}]
    finally:
        runtime.stop()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(
        "the embedded database failed the start" in w and "starting it once more" in w
        for w in warnings
    ), warnings
