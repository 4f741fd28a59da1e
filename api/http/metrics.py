"""Prometheus metrics at `/metrics` (open like health: counts, never content).

Every metric and its labels: the table in docs/operations.md. Resolutions, drawer verdicts and
statements come from `graph.backends.observe`, so they count every caller in the process (HTTP
routes, MCP tools, jobs) and no route needs a hook; the review backlog and the in-memory
indexes' states are gauges of `api.http.backlog_metrics`.
"""

import time
import typing
from collections import Counter as Tally
from collections.abc import Iterable, Iterator

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from castlegraph.api.http.backlog_metrics import IndexStates, ReviewBacklog
from castlegraph.api.service.runtime import Runtime
from castlegraph.graph.backends import observe
from castlegraph.graph.records import MentionResult, WriteOutcome
from castlegraph.graph.schema.inspection import JOB_STATUSES, job_counts
from castlegraph.resolver.entity_model import RuleName
from castlegraph.resolver.errors import CastlegraphError

METRICS_PATH = "/metrics"
UNMATCHED = "unmatched"
RULES = typing.get_args(RuleName)
SIMILAR_KINDS = ("exact", "normalized", "near")
DRAWER_WRITES = frozenset({"write_drawer", "supersede_drawer"})
HTTP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
STATEMENT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30)


class _GraphState:
    """Collected at scrape time: readiness, and jobs by status when the database answers."""

    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime

    def describe(self) -> list[Metric]:
        return [self._ready(), self._jobs()]

    def collect(self) -> Iterator[Metric]:
        ready = self._ready()
        ready.add_metric([], 1.0 if self._runtime.ready else 0.0)
        yield ready
        if self._runtime.ready:
            try:
                counts = job_counts(self._runtime.store)
            except CastlegraphError:
                return  # the scrape still answers; graph_ready tells the rest soon enough
            jobs = self._jobs()
            for status in JOB_STATUSES:
                jobs.add_metric([status], counts[status])
            yield jobs

    @staticmethod
    def _ready() -> GaugeMetricFamily:
        return GaugeMetricFamily("castlegraph_graph_ready", "1 once the database answers")

    @staticmethod
    def _jobs() -> GaugeMetricFamily:
        return GaugeMetricFamily(
            "castlegraph_jobs", "Jobs in the graph by status", labels=["status"]
        )


class Metrics:
    """The app's registry; observes the graph layer for as long as it lives.

    The hooks are per process (one service per process): each app has its own registry, but
    every live app observes every store in its process, which only matters to tests."""

    def __init__(self, runtime: Runtime) -> None:
        disable_created_metrics()  # type: ignore[no-untyped-call]  # no `_created` twin per counter
        self.registry = registry = CollectorRegistry()
        self.requests = Counter(
            "castlegraph_http_requests",
            "HTTP requests answered",
            ["method", "route", "status"],
            registry=registry,
        )
        self.latency = Histogram(
            "castlegraph_http_request_duration_seconds",
            "HTTP request duration",
            ["method", "route", "status"],
            buckets=HTTP_BUCKETS,
            registry=registry,
        )
        self.resolutions = Counter(
            "castlegraph_resolutions",
            "Mentions resolved, by the rule that fired",
            ["rule"],
            registry=registry,
        )
        self.drawer_writes = Counter(
            "castlegraph_drawer_writes",
            "Drawer writes: stored, or an existing copy returned",
            ["outcome"],
            registry=registry,
        )
        self.similar_links = Counter(
            "castlegraph_similar_links",
            "SIMILAR_TO links written, by kind",
            ["kind"],
            registry=registry,
        )
        self.statements = Histogram(
            "castlegraph_graph_statement_duration_seconds",
            "Database round trips by statement",
            ["statement"],
            buckets=STATEMENT_BUCKETS,
            registry=registry,
        )
        self.statement_errors = Counter(
            "castlegraph_graph_statement_errors",
            "Statements the database refused or lost",
            ["statement"],
            registry=registry,
        )
        self.tool_calls = Counter(
            "castlegraph_mcp_tool_calls",
            "MCP tool calls at /mcp, by tool (`unknown`: a name that is no tool)",
            ["tool"],
            registry=registry,
        )
        for rule in RULES:
            self.resolutions.labels(rule)
        for outcome in ("created", "exact_copy"):
            self.drawer_writes.labels(outcome)
        for kind in SIMILAR_KINDS:
            self.similar_links.labels(kind)
        registry.register(_GraphState(runtime))
        registry.register(ReviewBacklog(runtime))
        registry.register(IndexStates(runtime))
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        observe.subscribe(self)

    def statement(self, name: str, seconds: float, failed: bool) -> None:
        self.statements.labels(name).observe(seconds)
        if failed:
            self.statement_errors.labels(name).inc()

    def unit(self, use_case: str, result: object) -> None:
        if use_case == "resolve_mentions" and isinstance(result, list):
            rules = Tally(r.rule for r in result if isinstance(r, MentionResult))
            for rule, count in rules.items():
                self.resolutions.labels(rule).inc(count)
        elif use_case in DRAWER_WRITES and isinstance(result, WriteOutcome):
            self.drawer_writes.labels("created" if result.created else "exact_copy").inc()
            for kind, count in Tally(link.kind for link in result.similar).items():
                self.similar_links.labels(kind).inc(count)

    def tool_called(self, tool: str) -> None:
        self.tool_calls.labels(tool).inc()

    def endpoint(self, request: Request) -> Response:
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)

    def request_done(self, method: str, route: str, status: int, seconds: float) -> None:
        labels = (method_label(method), route, str(status))
        self.requests.labels(*labels).inc()
        self.latency.labels(*labels).observe(seconds)


def _routes(routes: Iterable[BaseRoute]) -> Iterator[BaseRoute]:
    """Every route, looking into included routers (FastAPI >= 0.16x keeps them whole). A router
    included under a prefix is skipped: its routes' paths do not hold the prefix."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is None:
            yield route
        elif not getattr(getattr(route, "include_context", None), "prefix", ""):
            yield from _routes(inner.routes)


HTTP_METHODS = frozenset(
    {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"}
)
OTHER_METHOD = "OTHER"


def method_label(method: str) -> str:
    """The request method as a label: a client may send any token as its method, and each
    distinct label value is a time series kept for the life of the process."""
    return method if method in HTTP_METHODS else OTHER_METHOD


def route_template(scope: Scope) -> str:
    """The matched route's path template; refused before routing (401, 413): matched here."""
    path = getattr(scope.get("route"), "path", None)
    if isinstance(path, str):
        return path
    partial = None
    for candidate in _routes(getattr(getattr(scope.get("app"), "router", None), "routes", ())):
        template = getattr(candidate, "path", None)
        match, _ = candidate.matches(scope)
        if match is Match.FULL and isinstance(template, str):
            return template
        if match is Match.PARTIAL and partial is None and isinstance(template, str):
            partial = template  # the path matched, the method did not (405)
    return partial or UNMATCHED


class HttpMetrics:
    """Pure ASGI middleware: count and time every HTTP request by route template and status."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500
        started = time.perf_counter()

        async def record_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, record_status)
        finally:
            seconds = time.perf_counter() - started
            self.metrics.request_done(scope["method"], route_template(scope), status, seconds)
