"""What each list of the word guard adds and costs (`bench quality`'s name-list table).

Each list is built the way the service builds it, by a child process
(`api.service.word_lists`), one child per list: the words it holds, the seconds the child took,
the child's peak memory (wordfreq unpacks a language's whole list there) and what the service
keeps of it (8 bytes a word). An empty list built the same way gives the child's own floor.
"""

import subprocess
import sys
import time
from typing import Any

from castlegraph.api.service import word_lists
from castlegraph.api.service.children import module_command
from castlegraph.api.service.lexicon import (
    GIVEN_NAMES_MIN_FREQUENCY,
    LANGUAGES,
    MIN_ZIPF,
    NAME_LANGUAGES,
    NAME_LISTS,
    NAME_MIN_ZIPF,
    NAME_WORDLIST,
    WORDLIST,
)
from castlegraph.api.service.word_lists import HASH_BYTES, ListSpec

LISTS: dict[str, ListSpec] = {
    "child alone (empty list)": ListSpec((), (), MIN_ZIPF, WORDLIST),
    "census names (zxcvbn)": ListSpec(NAME_LISTS, (), NAME_MIN_ZIPF, NAME_WORDLIST),
    f"given names of 55 countries (nam_dict ≥ {GIVEN_NAMES_MIN_FREQUENCY})": ListSpec(
        (), (), NAME_MIN_ZIPF, NAME_WORDLIST, GIVEN_NAMES_MIN_FREQUENCY
    ),
    "given names of 55 countries (nam_dict ≥ 2)": ListSpec((), (), NAME_MIN_ZIPF, NAME_WORDLIST, 2),
    f"wordfreq large ≥ {NAME_MIN_ZIPF}, 13 languages": ListSpec(
        (), NAME_LANGUAGES, NAME_MIN_ZIPF, NAME_WORDLIST
    ),
    "person names without nam_dict (before)": ListSpec(
        NAME_LISTS, NAME_LANGUAGES, NAME_MIN_ZIPF, NAME_WORDLIST
    ),
    "person names (default: all three)": ListSpec(
        NAME_LISTS, NAME_LANGUAGES, NAME_MIN_ZIPF, NAME_WORDLIST, GIVEN_NAMES_MIN_FREQUENCY
    ),
    f"general lexicon (wordfreq small ≥ {MIN_ZIPF}, 7 languages)": ListSpec(
        (), LANGUAGES, MIN_ZIPF, WORDLIST
    ),
}


_LAUNCHER = (
    "import os, resource, subprocess, sys;"
    " command = [str(os.getpid()) if arg == 'PARENT' else arg for arg in sys.argv[1:]];"
    " done = subprocess.run(command, check=False);"
    " print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr);"
    " sys.exit(done.returncode)"
)
"""Runs the child and prints its peak RSS (kilobytes). A small process of its own in between:
a child forked straight from this one would count this process's memory as its own peak. The
child's parent is the launcher: it watches the launcher's pid (`PARENT`)."""


def build_in_child(spec: ListSpec) -> dict[str, Any]:
    """One child's build of `spec`: words, seconds, the child's peak RSS, the service's share."""
    command = module_command(word_lists.__name__, "PARENT", spec.to_json())
    began = time.perf_counter()
    child = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, *command], capture_output=True, check=True
    )
    seconds = time.perf_counter() - began
    peak_kb = int(child.stderr.decode().split()[-1])
    return {
        "words": len(child.stdout) // HASH_BYTES,
        "child_seconds": round(seconds, 2),
        "child_peak_mb": round(peak_kb / 1024, 1),
        "service_mb": round(len(child.stdout) / 2**20, 2),
    }


def measure() -> dict[str, dict[str, Any]]:
    """Every list of `LISTS`, each in a child of its own."""
    return {label: build_in_child(spec) for label, spec in LISTS.items()}
