"""The FastAPI application: lifespan owns the runtime (database child process included).

The composition point of the service: the use cases are built here once, over the runtime, and
both the routes and the MCP endpoint mounted at `/mcp` call them; that mount is the only place
HTTP imports MCP (`tests/unit/test_architecture.py` names it), and only when `/mcp` is first
called (`api.http.lazy_mcp`).
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI

from castlegraph.api import VERSION
from castlegraph.api.http.auth import BearerAuth
from castlegraph.api.http.body_limit import BodySizeLimit
from castlegraph.api.http.deps import check_path_ids
from castlegraph.api.http.docs import install_docs
from castlegraph.api.http.envelope import install_error_handlers
from castlegraph.api.http.hosts import HostAllowList
from castlegraph.api.http.idempotency import IdempotencyKeys
from castlegraph.api.http.lazy_mcp import LazyMcp, McpEndpoint
from castlegraph.api.http.metrics import METRICS_PATH, HttpMetrics, Metrics
from castlegraph.api.http.openapi import install_openapi, operation_id
from castlegraph.api.http.origins import OriginCheck
from castlegraph.api.http.request_log import RequestLog
from castlegraph.api.http.review_page import router as review_page_router
from castlegraph.api.http.routes import drawers as drawers_routes
from castlegraph.api.http.routes import duplicates as duplicates_routes
from castlegraph.api.http.routes import entities as entities_routes
from castlegraph.api.http.routes import health as health_routes
from castlegraph.api.http.routes import jobs as jobs_routes
from castlegraph.api.http.routes import migrations as migrations_routes
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.service.settings import Settings, cached_settings
from castlegraph.api.usecases.assembly import UseCases


def create_app(settings: Settings | None = None, runtime: Runtime | None = None) -> FastAPI:
    """The app; a `runtime` already started by the caller is reused and stopped on shutdown."""
    settings = settings or cached_settings()
    runtime = runtime or Runtime(settings)
    usecases = UseCases(runtime)
    hosts = settings.api.own_hosts()
    metrics = Metrics(runtime)

    def agent_tools() -> McpEndpoint:
        """The agent tools, at /mcp: the MCP SDK (1 s and ~30 MB) loads when first called."""
        from castlegraph.api.mcp.server import http_endpoint  # noqa: PLC0415

        return http_endpoint(usecases, hosts, VERSION, metrics.tool_called)

    mcp = LazyMcp(agent_tools)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Started on the event-loop thread on purpose: the embedded database is told to die with
        # the thread that spawned it (PR_SET_PDEATHSIG), and pool threads come and go.
        if not runtime.started:
            runtime.start()
        try:
            async with mcp.running():
                yield
        finally:
            runtime.stop()

    app = FastAPI(
        title="castlegraph",
        version=VERSION,
        summary="Entity resolution and memory deduplication for knowledge graphs.",
        lifespan=lifespan,
        generate_unique_id_function=operation_id,
        docs_url=None,  # served from the package's own files: `install_docs`
        redoc_url=None,
    )
    app.state.runtime = runtime
    app.state.usecases = usecases
    app.add_middleware(IdempotencyKeys)
    tokens = [token.get_secret_value() for token in settings.api.tokens]
    app.add_middleware(BearerAuth, tokens=tokens)
    app.add_middleware(BodySizeLimit, max_bytes=settings.api.max_body_bytes)
    app.add_middleware(HttpMetrics, metrics=metrics)
    app.add_middleware(OriginCheck, allowed=settings.api.allowed_origins)  # after Host is known
    app.add_middleware(HostAllowList, hosts=hosts)  # before tokens: DNS rebinding, design §8.1
    app.add_middleware(RequestLog)  # the outermost: 401s and 413s get an id and a log line too
    install_error_handlers(app)
    install_docs(app)
    tokened = [
        routes.router
        for routes in (
            drawers_routes,
            entities_routes,
            jobs_routes,
            duplicates_routes,
            migrations_routes,
        )
    ]
    install_openapi(app, tokened)
    app.include_router(health_routes.router)  # open: no token (design §8.1)
    app.include_router(review_page_router)  # its files hold no data; its API calls need tokens
    for router in tokened:
        app.include_router(router, dependencies=[Depends(check_path_ids)])
    app.router.routes.append(mcp.route)
    app.add_route(METRICS_PATH, metrics.endpoint, include_in_schema=False)
    return app
