"""The general word list of the word guard (`api.service.lexicon.Lexicon`), as installed, and
how every list is built: by a child process (`api.service.word_lists`), else in this one."""

import logging
import subprocess
import sys
from pathlib import Path

import pytest
import wordfreq

from castlegraph.api.service import lexicon
from castlegraph.api.service.lexicon import (
    LANGUAGES,
    MIN_ZIPF,
    NAME_LANGUAGES,
    NAME_WORDLIST,
    WORDLIST,
    Lexicon,
)
from castlegraph.api.service.word_lists import ListSpec
from tests.support.processes import alive, wait_dead

LEXICON = Lexicon()


def test_it_knows_every_word_of_the_lists_at_the_floor_and_no_other() -> None:
    """The hashed list holds what a set of wordfreq's words at Zipf ≥ 3.0 held."""
    floor = 10 ** (MIN_ZIPF - 9)
    words: set[str] = set()
    below: set[str] = set()
    for language in LANGUAGES:
        for word, frequency in wordfreq.get_frequency_dict(language, WORDLIST).items():
            (words if frequency >= floor else below).add(word)
    assert len(LEXICON.words) == len(words) > 100_000
    assert all(LEXICON(word) for word in words)
    assert not any(LEXICON(word) for word in below - words)


def test_names_people_write_are_known_misspellings_are_not() -> None:
    assert all(LEXICON(word) for word in ("maria", "mario", "jon", "marian", "lopez"))
    assert not any(LEXICON(word) for word in ("kubernets", "surealdb", "maeia"))


SMALL = ListSpec((), ("en",), 5.0, WORDLIST)
"""English words at Zipf ≥ 5: a list a child builds in a fraction of a second."""


def test_a_child_process_builds_the_list_this_process_would(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger=lexicon.__name__):
        from_child = lexicon._built(SMALL)
    assert caplog.records == []  # the child built it: no fallback
    assert from_child.to_bytes() == SMALL.build().to_bytes()
    assert len(from_child) > 100
    assert ("the" in from_child, "kubernets" in from_child) == (True, False)


def test_without_a_child_the_list_is_built_here(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    with caplog.at_level(logging.WARNING, logger=lexicon.__name__):
        built = lexicon._built(SMALL)
    assert built.to_bytes() == SMALL.build().to_bytes()
    assert "built in the service's own process" in caplog.text


def test_a_failing_child_is_reported_and_the_list_built_here(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A list the child cannot build (no such language) fails here too, with the same error."""
    unknown = ListSpec((), ("xx-nowhere",), 5.0, WORDLIST)
    with caplog.at_level(logging.WARNING, logger=lexicon.__name__), pytest.raises(LookupError):
        lexicon._built(unknown)
    assert "its child failed" in caplog.text


def test_a_package_of_the_same_name_where_the_service_runs_is_not_the_childs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """`python -m` looks in its working directory first: a user's `api` package there must not
    stand in for the service's own in the child."""
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "__init__.py").write_text("raise SystemExit('the wrong api')\n")
    monkeypatch.chdir(tmp_path)
    with caplog.at_level(logging.WARNING, logger=lexicon.__name__):
        built = lexicon._built(SMALL)
    assert (caplog.records, "the" in built) == ([], True)


def test_a_child_dies_with_its_parent() -> None:
    """A service killed while a child builds its list leaves no child behind."""
    slow = ListSpec((), NAME_LANGUAGES, 1.0, NAME_WORDLIST)  # every word: several seconds
    code = (
        "import os, subprocess, sys, time;"
        " from castlegraph.api.service.children import module_command;"
        " child = subprocess.Popen(module_command("
        f"'castlegraph.api.service.word_lists', str(os.getpid()),"
        f" {slow.to_json()!r}), stdout=subprocess.DEVNULL);"
        " print(child.pid, flush=True); time.sleep(60)"
    )
    started = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    with started as parent:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert alive(child)
        parent.kill()
    assert wait_dead(child, seconds=1.0)  # a kill takes milliseconds, the build seconds
