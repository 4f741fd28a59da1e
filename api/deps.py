"""Dependencies for the routes, as `Annotated` aliases."""

from typing import Annotated

from fastapi import Depends, Request

from api.runtime import Runtime
from graph.store import GraphStore


def get_runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


def get_store(request: Request) -> GraphStore:
    return get_runtime(request).store


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
StoreDep = Annotated[GraphStore, Depends(get_store)]
