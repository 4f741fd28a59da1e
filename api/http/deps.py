"""Dependencies for the routes, as `Annotated` aliases.

They are `async` because they never block: FastAPI would run a plain `def` dependency on its
thread pool, a thread hop per dependency per request.
"""

from typing import Annotated

from fastapi import Depends, Request

from api.http.auth import caller_agent
from api.service.runtime import Runtime
from graph.store import GraphStore


async def get_runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


async def get_store(request: Request) -> GraphStore:
    runtime: Runtime = request.app.state.runtime
    return runtime.store


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
StoreDep = Annotated[GraphStore, Depends(get_store)]


async def get_caller_agent(request: Request) -> str | None:
    """The agent the caller's bearer token names, if tokens are on and it names one."""
    return caller_agent(request.state)


CallerAgent = Annotated[str | None, Depends(get_caller_agent)]
