"""docs/castlegraph.example.toml cannot drift from the settings: it is loaded through them."""

import re
import tomllib
from pathlib import Path

import pytest

from castlegraph.api.service.settings import CONFIG_ENV, ENVIRONMENT, Settings, load_settings

EXAMPLE = Path(__file__).parents[2] / "docs" / "castlegraph.example.toml"
COMMENTED_SETTING = re.compile(r"^# (\w+ = .*)$", re.MULTILINE)


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no castlegraph.toml from the working directory
    for name in [*ENVIRONMENT, CONFIG_ENV]:
        monkeypatch.delenv(name, raising=False)


def every_setting() -> set[tuple[str, str]]:
    return {
        (section, key)
        for section, field in Settings.model_fields.items()
        for key in field.annotation.model_fields  # type: ignore[union-attr]
    }


def test_the_example_states_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    defaults = load_settings()
    monkeypatch.setenv(CONFIG_ENV, str(EXAMPLE))
    assert load_settings() == defaults


def test_every_setting_is_in_the_example_and_every_key_is_a_setting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The settings without a default value are shown commented out: count them in.
    whole = tmp_path / "whole.toml"
    whole.write_text(COMMENTED_SETTING.sub(r"\1", EXAMPLE.read_text()))
    keys = {
        (section, key)
        for section, values in tomllib.loads(whole.read_text()).items()
        for key in values
    }
    assert keys == every_setting()
    monkeypatch.setenv(CONFIG_ENV, str(whole))
    assert load_settings().api.tokens[0].get_secret_value() == "change-me"  # read, not ignored


def test_every_setting_has_its_one_line_comment() -> None:
    lines = EXAMPLE.read_text().splitlines()
    for number, line in enumerate(lines):
        if re.match(r"^(# )?\w+ = ", line):
            assert lines[number - 1].startswith("# "), line
            assert not re.match(r"^# \w+ = ", lines[number - 1]), line
