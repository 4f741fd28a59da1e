"""A bounded number of heavy reads at once, so they cannot starve cheap routes.

`GET /api/duplicates` and `GET /api/hygiene` read every embedded drawer; each runs on a worker
thread and keeps the database busy. A crowd of them would hold every thread of the pool and
queue `/api/health` and the writes behind them. `HeavyReads` lets `api.heavy_reads` of them
run at once; another waits on the event loop (holding no thread) at most
`api.heavy_read_wait_seconds`, then is told `503 service::busy` with `Retry-After`.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio

from api.errors import ServiceBusy


class HeavyReads:
    def __init__(self, slots: int, wait_seconds: float) -> None:
        self.slots = slots
        self.wait_seconds = wait_seconds
        self._semaphore: anyio.Semaphore | None = None

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        # Made on first use, inside the event loop that serves the app.
        if self._semaphore is None:
            self._semaphore = anyio.Semaphore(self.slots)
        semaphore = self._semaphore
        if not await _acquire(semaphore, self.wait_seconds):
            raise ServiceBusy(
                f"{self.slots} heavy read(s) already running; retry later",
                {"running": self.slots, "waited_seconds": self.wait_seconds},
            )
        try:
            yield
        finally:
            semaphore.release()


async def _acquire(semaphore: anyio.Semaphore, wait_seconds: float) -> bool:
    """A free slot at once (even with no wait allowed), else one freed within the wait."""
    try:
        semaphore.acquire_nowait()
        return True
    except anyio.WouldBlock:
        pass
    with anyio.move_on_after(wait_seconds):
        await semaphore.acquire()
        return True
    return False
