"""`GET /api/health`: 200 once the database answers and migrations ran, 503 before.

It answers without a token, so a stranger hears only the status (design §8.1):
`{"status": "ok" | "starting" | "unavailable"}`, with the same HTTP status. The backend, its
address and data directory, the in-memory indexes' states and the core the rules run on
(`native` or `python`, and its version) are for a caller with a valid token, or for everyone
when no tokens are configured.
"""

import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from castlegraph.api.http.auth import caller_identified
from castlegraph.api.http.deps import RuntimeDep
from castlegraph.api.http.envelope import error_response
from castlegraph.api.http.schemas.errors import errors
from castlegraph.api.http.schemas.health import HealthOut, HealthUnavailableOut
from castlegraph.api.http.statuses import http_status, retry_after
from castlegraph.api.service.runtime import Runtime
from castlegraph.graph.errors import GraphError, GraphUnavailable

log = logging.getLogger("castlegraph.api")
router = APIRouter(tags=["health"])


@router.get(
    "/api/health",
    summary="200 once the database answers and migrations ran",
    responses={
        **errors(403),  # a foreign `Host`: no token is needed here, and nothing else is read
        200: {"model": HealthOut, "description": "ready"},
        503: {"model": HealthUnavailableOut, "description": "starting, or the database is down"},
    },
)
def health(request: Request, runtime: RuntimeDep) -> JSONResponse:
    status, problem = _status(runtime)
    if not caller_identified(request.state):
        if problem is None:
            return JSONResponse({"status": status})
        return JSONResponse(
            {"status": status}, status_code=http_status(type(problem)), headers=retry_after(problem)
        )
    if problem is not None:
        return error_response(problem)
    backend = runtime.backend.description if runtime.backend else "none"
    # 200 while an in-memory index builds (design §8): the service serves reads meanwhile, and
    # a write that needs the index waits for it or is told 503 with Retry-After (design §5.4).
    states = {
        name: "off" if index is None else index.state
        for name, index in (
            ("entity_index", runtime.entity_index),
            ("drawer_index", runtime.drawer_index),
        )
    }
    running = runtime.core
    cores = {
        "core": running.name if running else None,
        "core_version": running.version if running else None,
    }
    return JSONResponse({"status": status, "backend": backend, **states, **cores})


def _status(runtime: Runtime) -> tuple[str, GraphUnavailable | None]:
    """`ok`, `starting` (migrations not run yet) or `unavailable` (a failed ping), and why."""
    if not runtime.ready:
        return "starting", GraphUnavailable("the graph database is not ready yet")
    try:
        runtime.store.ping()
    except GraphUnavailable as error:
        return "unavailable", error
    except GraphError as error:  # any failed ping means not ready; its words go to the log
        log.warning("health: %s", error.log_text())
        return "unavailable", GraphUnavailable("the graph database failed its ping")
    return "ok", None
