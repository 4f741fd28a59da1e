"""Dependencies for the routes, as `Annotated` aliases."""

from typing import Annotated

from fastapi import Depends, Request

from api.auth import caller_agent
from api.runtime import Runtime
from graph.store import GraphStore


def get_runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


def get_store(request: Request) -> GraphStore:
    return get_runtime(request).store


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
StoreDep = Annotated[GraphStore, Depends(get_store)]


def get_caller_agent(request: Request) -> str | None:
    """The agent the caller's bearer token names, if tokens are on and it names one."""
    return caller_agent(request.state)


CallerAgent = Annotated[str | None, Depends(get_caller_agent)]
