"""A bounded number of heavy reads at once, so they cannot starve cheap calls.

`find_duplicates` and `hygiene` read every embedded drawer they may see and keep the database
busy; a crowd of them would hold every worker thread and queue `/api/health` and the writes
behind them. `HeavyReads` lets `api.heavy_reads` of them run at once in the process, whichever
door they came in by; a caller past the limit is told `503 service::busy` with `Retry-After`.
"""

import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

import anyio

from castlegraph.api.errors import ServiceBusy

POLL_SECONDS = 0.02
"""How often a waiting route looks for a free slot: a heavy read takes far longer than this."""


class HeavyReads:
    """One semaphore for every door: the HTTP routes, and the MCP tools (over HTTP or stdio),
    which reach the same use cases through the in-process client. An HTTP route waits on the
    event loop, holding no thread (`slot`); an MCP tool already runs on a worker thread of its
    own and waits there (`held`). Either waits at most `api.heavy_read_wait_seconds`."""

    def __init__(self, slots: int, wait_seconds: float) -> None:
        self.slots = slots
        self.wait_seconds = wait_seconds
        self._free = threading.BoundedSemaphore(slots)

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """For a coroutine: wait on the event loop."""
        if not await self._acquire_waiting_on_loop():
            raise self._busy()
        try:
            yield
        finally:
            self._free.release()

    @contextmanager
    def held(self) -> Iterator[None]:
        """For a worker thread: wait on the thread."""
        if not self._free.acquire(timeout=self.wait_seconds):
            raise self._busy()
        try:
            yield
        finally:
            self._free.release()

    async def _acquire_waiting_on_loop(self) -> bool:
        """A free slot at once (even with no wait allowed), else one freed within the wait."""
        deadline = time.monotonic() + self.wait_seconds
        while not self._free.acquire(blocking=False):
            if time.monotonic() >= deadline:
                return False
            await anyio.sleep(POLL_SECONDS)
        return True

    def _busy(self) -> ServiceBusy:
        return ServiceBusy(
            f"{self.slots} heavy read(s) already running; retry later",
            {"running": self.slots, "waited_seconds": self.wait_seconds},
        )
