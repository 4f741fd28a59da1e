"""One place chooses the core the rules run on (`resolver.core`), from the setting `dedup.core`
(`CASTLEGRAPH_CORE`): `auto` takes the compiled core when it loads, `native` refuses to start
without it, `python` never loads it; the start of a service makes the choice and says it."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from castlegraph.api.service import doctor
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.service.settings import load_settings
from castlegraph.resolver import core, drawer_terms, shingles
from tests.support.cores import NATIVE_BUILT, chosen_back, native_missing, needs_native


@pytest.fixture(autouse=True)
def session_core_after() -> Iterator[None]:
    with chosen_back():
        yield


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no castlegraph.toml from the working directory
    monkeypatch.delenv("CASTLEGRAPH_CORE", raising=False)


def test_python_binds_the_pure_python_functions_and_says_so() -> None:
    running = core.choose("python")
    assert running == core.running()
    assert running.name == "python" and running.version
    assert core.sketch is shingles.sketch
    assert (core.anchor_terms, core.band_terms) == (
        drawer_terms.anchor_terms,
        drawer_terms.band_terms,
    )


@needs_native
def test_auto_and_native_bind_the_compiled_functions() -> None:
    native = core.native_module()
    assert native is not None
    for choice in ("auto", "native"):
        running = core.choose(choice)  # type: ignore[arg-type]
        assert (running.name, running.version) == ("native", native.__version__)
        assert core.anchor_terms is native.anchor_terms
        assert core.band_terms is native.band_terms
        assert core.sketch.__wrapped__ is native.sketch  # type: ignore[attr-defined]


def test_auto_without_the_compiled_core_runs_the_pure_python_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with native_missing(monkeypatch):
        assert core.native_module() is None
        assert core.choose("auto").name == "python"
    assert core.sketch is shingles.sketch


def test_native_without_the_compiled_core_refuses_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    core.choose("python")
    with native_missing(monkeypatch), pytest.raises(core.NativeCoreUnavailable) as refused:
        core.choose("native")
    assert "castlegraph._core" in refused.value.message
    assert "CASTLEGRAPH_CORE" in refused.value.message and "cargo" in refused.value.message
    assert core.running().name == "python"  # nothing was rebound


def test_an_unknown_choice_is_refused() -> None:
    with pytest.raises(ValueError, match="auto, native, python"):
        core.choose("fast")  # type: ignore[arg-type]


def test_the_setting_comes_from_castlegraph_core(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings().dedup.core == "auto"
    monkeypatch.setenv("CASTLEGRAPH_CORE", "Python")
    assert load_settings().dedup.core == "python"
    monkeypatch.setenv("CASTLEGRAPH_CORE", "rust")
    with pytest.raises(ValidationError) as refused:
        load_settings()
    assert "dedup.core" in str(refused.value)


def test_a_service_started_with_native_and_no_compiled_core_does_not_start(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    runtime = Runtime(load_settings(dedup={"core": "native"}, graph={"data_dir": tmp_path}))
    with native_missing(monkeypatch), pytest.raises(core.NativeCoreUnavailable):
        runtime.start()
    assert runtime.backend is None  # refused before the database was opened


def test_doctor_says_which_core_a_service_would_run(monkeypatch: pytest.MonkeyPatch) -> None:
    check = doctor.core_check(load_settings(dedup={"core": "python"}))
    assert (check.status, check.message) == (
        "ok",
        f"the pure-Python core, {core.running()} (core = python: as chosen)",
    )
    expected = "the compiled core" if NATIVE_BUILT else "the pure-Python core"
    assert doctor.core_check(load_settings()).message.startswith(expected)
    with native_missing(monkeypatch):
        refused = doctor.core_check(load_settings(dedup={"core": "native"}))
        fallback = doctor.core_check(load_settings())
    assert refused.status == "fail" and "CASTLEGRAPH_CORE=auto" in (refused.fix or "")
    assert fallback.message.endswith("(core = auto: the compiled core is not built here)")
