from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.http.deps import RuntimeDep
from api.http.envelope import error_response
from graph.errors import GraphError, GraphUnavailable

router = APIRouter(tags=["health"])


@router.get("/api/health", summary="200 once the database answers and migrations ran")
def health(runtime: RuntimeDep) -> JSONResponse:
    if not runtime.ready:
        return error_response(GraphUnavailable("the graph database is not ready yet"))
    try:
        runtime.store.ping()
    except GraphError as error:
        return error_response(GraphUnavailable(error.message))  # any failed ping: not ready
    backend = runtime.backend.description if runtime.backend else "none"
    return JSONResponse({"status": "ok", "backend": backend})
