"""The service's heap settings (`api.service.heap`), on glibc: freed memory goes back, and what
start-up left alive is frozen out of the cyclic collector."""

import gc
import platform
from collections.abc import Iterator
from pathlib import Path

import pytest

from castlegraph.api.service import heap

pytestmark = pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc's malloc"
)


@pytest.fixture(autouse=True)
def collector_thresholds() -> Iterator[None]:
    """`heap.tune` sets the collector's thresholds for the process: the tests put them back."""
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")  # pragma: no cover


def test_trim_hands_back_what_was_freed_in_the_arena() -> None:
    """100 MB of 2 KB blocks (past Python's small-object allocator, below the mmap threshold:
    malloc's arena serves them), freed but the last: the arena keeps the pages until trimmed."""
    heap.tune()
    blocks = [bytes(2048) + bytes([n % 256]) for n in range(50_000)]
    kept = blocks[-1]
    grown = rss_mb()
    del blocks
    before = rss_mb()
    assert heap.trim()
    after = rss_mb()
    assert before - after > 50, (grown, before, after)
    assert kept[-1] == 49_999 % 256


def test_tune_collects_young_objects_in_larger_steps() -> None:
    gc.set_threshold(700, 10, 10)
    heap.tune()
    assert gc.get_threshold() == heap.GC_THRESHOLDS == (50_000, 20, 10)


def test_freeze_takes_what_is_alive_out_of_the_collectors_generations() -> None:
    gc.unfreeze()
    try:
        heap.freeze()
        assert gc.get_freeze_count() > 1_000  # at least the imported modules' objects
    finally:
        gc.unfreeze()
    assert gc.get_freeze_count() == 0
