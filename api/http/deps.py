"""Dependencies for the routes, as `Annotated` aliases: the use cases `create_app` built once,
the caller's agent, the checks every route shares.

They are `async` because they never block: FastAPI would run a plain `def` dependency on its
thread pool, a thread hop per dependency per request. What only the document needs to say (bearer
tokens, `Idempotency-Key`) is no dependency: FastAPI solves each one on every request
(`api.http.openapi` writes those into the document).
"""

from typing import Annotated

from fastapi import Depends, Request

from castlegraph.api.errors import InvalidInput
from castlegraph.api.service.agents import caller_agent
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.usecases.assembly import UseCases
from castlegraph.graph.cursors import is_id_text


async def get_runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


async def get_usecases(request: Request) -> UseCases:
    usecases: UseCases = request.app.state.usecases
    return usecases


async def get_usecases_on_store(request: Request) -> UseCases:
    """The use cases, once the store answers: a route that reads the database says
    `503 graph::unavailable` before it checks its parameters, as its store dependency did."""
    usecases: UseCases = request.app.state.usecases
    usecases.runtime.store  # noqa: B018  # raises GraphUnavailable until the database is up
    return usecases


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
UseCasesDep = Annotated[UseCases, Depends(get_usecases)]
StoredUseCases = Annotated[UseCases, Depends(get_usecases_on_store)]


async def get_caller_agent(request: Request) -> str | None:
    """The agent the caller's bearer token names, if tokens are on and it names one."""
    return caller_agent(request.state)


CallerAgent = Annotated[str | None, Depends(get_caller_agent)]


async def check_path_ids(request: Request) -> None:
    """Every route's ids in its path (`{drawer_id}`, `{entity_id}`, `{job_id}`, `{other_id}`:
    each such parameter's name ends in `_id`) are id text, or `400 input::invalid` before the
    route runs (design §8.1: a NUL or a control character in an id is never a 500). Wing and
    room names have their own check and answer (`check_path_segment`)."""
    for name, value in request.path_params.items():
        if name.endswith("_id") and not is_id_text(value):
            problem = f"{name} holds control characters or lone surrogates"
            raise InvalidInput(problem, {"field": name})
