"""The `/mcp` route, with the MCP SDK imported on the first request that reaches it.

The SDK and the server built on it (tools, their pydantic models) took ~32 MB of the service's
memory and ~1 s of its start, though most services never see an agent over HTTP. This route
stands at `/mcp` from the start; the first request builds the endpoint (`build`, off the event
loop: the import holds it a second) and starts its session manager in a task group the app's
lifespan runs (`running`), so the manager lives and stops with the app as before.
"""

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol

import anyio
import anyio.to_thread
from anyio.abc import TaskGroup, TaskStatus
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

MCP_PATH = "/mcp"
"""Exactly `/mcp`: a mount would answer it with a redirect to `/mcp/`."""


class McpEndpoint(Protocol):
    """What the MCP server gives the app (`api.mcp.server.HttpEndpoint`)."""

    @property
    def route(self) -> BaseRoute: ...

    def running(self) -> AbstractAsyncContextManager[None]: ...


class LazyMcp:
    """`route` for the app's routes, `running()` for its lifespan; `build` makes the endpoint."""

    def __init__(self, build: Callable[[], McpEndpoint]) -> None:
        self._build = build
        self._endpoint: McpEndpoint | None = None
        self._tasks: TaskGroup | None = None
        self._lock = anyio.Lock()
        self.route = Route(MCP_PATH, endpoint=self)  # an ASGI app: every method, as the SDK's

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """While the app runs: an endpoint built in it is served until the app stops, and a
        later run of the same app builds a fresh one (a session manager runs once)."""
        async with anyio.create_task_group() as tasks:
            self._tasks = tasks
            try:
                yield
            finally:
                self._tasks, self._endpoint = None, None
                tasks.cancel_scope.cancel()

    @property
    def built(self) -> bool:
        return self._endpoint is not None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        endpoint = await self._started()
        await endpoint.route.handle(scope, receive, send)

    async def _started(self) -> McpEndpoint:
        async with self._lock:
            if self._endpoint is None:
                if self._tasks is None:
                    raise RuntimeError("the MCP endpoint is served while the app runs only")
                endpoint = await anyio.to_thread.run_sync(self._build)
                await self._tasks.start(_serve, endpoint)
                self._endpoint = endpoint
            return self._endpoint


async def _serve(endpoint: McpEndpoint, *, task_status: TaskStatus[None]) -> None:
    """Runs the endpoint's session manager until the app's lifespan cancels it."""
    async with endpoint.running():
        task_status.started()
        await anyio.sleep_forever()
