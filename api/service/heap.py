"""The C heap of a long-running service: fewer arenas, large blocks given back (design §10).

glibc's malloc keeps most of what threads free in their arenas, and its `mmap` threshold grows
with the largest block freed: `tune` caps the arenas and fixes the threshold (and the cyclic
collector's thresholds), `trim` hands back what the arenas hold free, `freeze` takes what
start-up left alive out of the collector's way. Elsewhere than glibc the malloc calls do nothing.
"""

import ctypes
import functools
import gc
import logging

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
ARENAS = 2
MMAP_THRESHOLD = 256 * 1024
"""Blocks from 256 KB are mapped apiece and unmapped when freed. The price is page faults: a
batch's larger arrays are faulted in anew each time (at 10 k entities, 369 k minor faults over
twelve batches against 154 k with glibc's defaults, a few per cent of a batch's CPU); 1 MB
gave 236 k faults and 10 MB more RSS, 8 MB 147 k faults and 30 MB more."""
GC_THRESHOLDS = (50_000, 20, 10)
"""The cyclic collector's thresholds (young generation, then how many young collections make a
middle one, and middle ones a full one). A batch of mentions allocates and frees hundreds of
thousands of lists, dicts and tuples, none of them in a cycle. With Python's defaults (700, 10,
10) a batch set off 90-220 young collections and one or two full ones, 50-180 ms a batch at
1 M entities (mean ~105 ms), and collected nothing; with a young generation of 50,000 it sets
off one or two young ones, 25-50 ms (2026-12-02, in-process on the `bench mentions` palace of
1 M, design §10). Garbage in a cycle (an exception's frames) waits a little longer."""


@functools.cache
def _glibc() -> ctypes.CDLL | None:
    """The C library the process runs on, if it is glibc. Looked up once, and by `dlopen` of
    the process itself: `ctypes.util.find_library` runs `ldconfig` in a child process each
    time, which a trim after start-up did while the service was already answering."""
    try:
        libc = ctypes.CDLL(None)
        _ = libc.mallopt, libc.malloc_trim
    except (OSError, AttributeError):
        return None
    return libc


def tune() -> None:
    """At start, before the threads: two arenas, a fixed `mmap` threshold, and the collector's
    thresholds (the last everywhere, the first two on glibc).

    glibc gives each thread that allocates at once an arena of its own (up to 8 per core), and
    the request threads each kept what their batches had used. Its `mmap` threshold grows with
    the largest block freed, up to 32 MB, so after the entity index's build buffers every
    smaller array came from the arenas and stayed there too."""
    gc.set_threshold(*GC_THRESHOLDS)
    libc = _glibc()
    if libc is not None and not (
        libc.mallopt(M_ARENA_MAX, ARENAS) and libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    ):
        log.warning("malloc settings refused: the service may hold more memory than it uses")


def trim() -> bool:
    """Give the system back the free memory at the top of each arena and its free pages;
    whether any went back."""
    libc = _glibc()
    return libc is not None and bool(libc.malloc_trim(0))


def freeze() -> None:
    """Move what start-up left alive (modules, word lists, the index's objects) out of the
    cyclic collector's generations: a full collection, which a batch of mentions set off about
    once, no longer walks them (design §10). Objects created later are collected as ever."""
    gc.collect()
    gc.freeze()
