import logging

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.http.deps import RuntimeDep
from api.http.envelope import error_response
from graph.errors import GraphError, GraphUnavailable

log = logging.getLogger("castlegraph.api")
router = APIRouter(tags=["health"])


@router.get("/api/health", summary="200 once the database answers and migrations ran")
def health(runtime: RuntimeDep) -> JSONResponse:
    if not runtime.ready:
        return error_response(GraphUnavailable("the graph database is not ready yet"))
    try:
        runtime.store.ping()
    except GraphUnavailable as error:
        return error_response(error)
    except GraphError as error:  # any failed ping means not ready; its words go to the log
        log.warning("health: %s", error.log_text())
        return error_response(GraphUnavailable("the graph database failed its ping"))
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
    return JSONResponse({"status": "ok", "backend": backend, **states})
