"""Request ids, JSON logs and Prometheus metrics, through the real app and its database.

Counters of the shared app only grow, so each test compares a scrape before and after what it
does. Every app in the test process observes every statement (the graph layer's hooks are
per process), so statement counts are compared with `>=`.
"""

import io
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from castlegraph.api.http.app import create_app
from castlegraph.api.http.backlog_metrics import BACKLOG_SECONDS, ReviewBacklog
from castlegraph.api.service.logs import (
    JsonFormatter,
    LogFormat,
    RequestIdFilter,
    TextFormatter,
    configure_logging,
    use_json,
)
from castlegraph.graph.jobs import create_job
from tests.support.app import app_settings, app_store, running_app
from tests.support.mcp import MCP_HEADERS

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]
ROOM = "/api/wings/ops/rooms/obs/drawers"


def scrape(client: TestClient) -> Samples:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def grew(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


@pytest.fixture
def records() -> Iterator[io.StringIO]:
    """What the service logs during the test, formatted as `serve` formats JSON lines."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield stream
    root.removeHandler(handler)
    root.setLevel(level)


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def access_lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [line for line in lines(stream) if line["logger"] == "castlegraph.access"]


# --- request ids and logs -----------------------------------------------------------------------


def test_a_sane_request_id_is_kept_returned_and_logged(
    client: TestClient, records: io.StringIO
) -> None:
    response = client.get("/api/health?token=hunter2", headers={"X-Request-Id": "req-42.a:b"})
    assert response.headers["x-request-id"] == "req-42.a:b"
    [line] = access_lines(records)
    assert line["request_id"] == "req-42.a:b"
    assert (line["method"], line["path"], line["status"]) == ("GET", "/api/health", 200)
    assert isinstance(line["duration_ms"], float)
    assert line["message"].startswith("GET /api/health 200 ")
    served = [line for line in lines(records) if not line["logger"].startswith("httpx")]
    assert "hunter2" not in json.dumps(served)  # never the query string (the client logs it)


@pytest.mark.parametrize("given", ["", "has space", "x" * 129, "new\nline", "naïve"])
def test_an_insane_request_id_is_replaced(client: TestClient, given: str) -> None:
    headers = {"X-Request-Id": given.encode()} if given else {}
    made = client.get("/api/health", headers=headers).headers["x-request-id"]
    assert made != given
    assert len(made) == 32
    int(made, 16)


def test_every_record_logged_while_serving_carries_the_request_id(
    tmp_path: Path, records: io.StringIO
) -> None:
    app = create_app(app_settings(tmp_path / "data"))

    def noisy() -> dict[str, str]:  # a sync route: Starlette runs it on a worker thread
        logging.getLogger("castlegraph.test").warning("inside the route")
        return {"ok": "yes"}

    app.add_api_route("/noisy", noisy)
    with TestClient(app) as client:
        rid = client.get("/noisy").headers["x-request-id"]
    inside = [line for line in lines(records) if line["message"] == "inside the route"]
    assert [(line["request_id"], line["level"]) for line in inside] == [(rid, "warning")]
    assert [line["request_id"] for line in access_lines(records)] == [rid]


def test_requests_refused_before_routing_are_logged_too(
    client: TestClient, records: io.StringIO
) -> None:
    response = client.post(ROOM, content=b"x" * (9 * 1024 * 1024))
    assert response.status_code == 413
    [line] = access_lines(records)
    assert (line["status"], line["request_id"]) == (413, response.headers["x-request-id"])
    assert "xxxx" not in records.getvalue()  # never a body


def test_json_lines_carry_extras_and_exceptions() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord(
            "castlegraph", logging.ERROR, __file__, 1, "failed %s", ("x",), sys.exc_info()
        )
    record.__dict__["job"] = "j-1"
    line = json.loads(JsonFormatter().format(record))
    assert (line["level"], line["logger"], line["message"], line["job"]) == (
        "error",
        "castlegraph",
        "failed x",
        "j-1",
    )
    assert "ValueError: boom" in line["exception"]
    assert "request_id" not in line  # logged outside a request
    assert line["time"].endswith("+00:00")


def test_text_lines_show_the_request_id_when_there_is_one() -> None:
    record = logging.LogRecord("castlegraph.access", logging.INFO, __file__, 1, "GET /", (), None)
    record.request_id = "abc"
    assert " castlegraph.access [abc] GET /" in TextFormatter().format(record)
    record.request_id = None
    assert " castlegraph.access GET /" in TextFormatter().format(record)


def test_a_text_line_cannot_be_forged_through_a_requested_path() -> None:
    path = "/api/x\n2026-01-01 00:00:00,000 INFO castlegraph.access GET /admin 200\u2028"
    record = logging.LogRecord(
        "castlegraph.access", logging.INFO, __file__, 1, "%s %s %d", ("GET", path, 404), None
    )
    line = TextFormatter().format(record)
    assert "\n" not in line
    assert "\u2028" not in line
    forged = "2026-01-01 00:00:00,000 INFO castlegraph.access GET /admin 200"
    assert line.endswith(f" GET /api/x\\n{forged}\\u2028 404")


def test_configure_logging_installs_one_handler_in_the_chosen_format() -> None:
    root = logging.getLogger()
    saved, level = list(root.handlers), root.level
    try:
        configure_logging(json=True, level=logging.WARNING)
        [handler] = root.handlers
        assert isinstance(handler.formatter, JsonFormatter)
        assert root.level == logging.WARNING
        configure_logging(json=False)
        [handler] = root.handlers
        assert isinstance(handler.formatter, TextFormatter)
    finally:
        root.handlers[:] = saved
        root.setLevel(level)


def test_json_is_the_default_unless_stderr_is_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert use_json(None) is True
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert use_json(None) is False
    assert use_json(LogFormat.json) is True
    assert use_json(LogFormat.text) is False


# --- metrics ------------------------------------------------------------------------------------


def test_requests_are_counted_by_route_template_and_status(client: TestClient) -> None:
    before = scrape(client)
    client.get("/api/drawers/00000000-0000-0000-0000-000000000001")
    client.get("/api/drawers/00000000-0000-0000-0000-000000000002")
    client.get("/no/such/route")
    after = scrape(client)
    route = {"method": "GET", "route": "/api/drawers/{drawer_id}", "status": "404"}
    assert grew(before, after, "castlegraph_http_requests_total", **route) == 2
    assert grew(before, after, "castlegraph_http_request_duration_seconds_count", **route) == 2
    unmatched = {"method": "GET", "route": "unmatched", "status": "404"}
    assert grew(before, after, "castlegraph_http_requests_total", **unmatched) == 1
    assert not any("00000000" in dict(labels).get("route", "") for _, labels in after)


def test_an_unknown_method_is_counted_under_one_label(client: TestClient) -> None:
    before = scrape(client)
    for method in ("FOO1", "FOO2", "BREW"):
        assert client.request(method, "/api/health").status_code == 405
    after = scrape(client)
    route = {"method": "OTHER", "route": "/api/health", "status": "405"}
    assert grew(before, after, "castlegraph_http_requests_total", **route) == 3
    methods = {dict(labels).get("method") for _, labels in after}
    assert not methods & {"FOO1", "FOO2", "BREW"}


def test_resolutions_are_counted_by_rule(client: TestClient) -> None:
    drawer = client.post(ROOM, json={"content": "Ada wrote the first program"}).json()["drawer"]
    before = scrape(client)
    batch = [
        {"drawer": drawer["id"], "name": name, "kind": "person"}
        for name in ("Ada Lovelace", "Ada Lovelace", "ADA LOVELACE", "Grace Hopper")
    ]
    assert client.post("/api/mentions", json={"mentions": batch}).status_code == 200
    one = {"name": "Grace Hopper", "kind": "person"}
    assert client.post(f"/api/drawers/{drawer['id']}/mentions", json=one).status_code == 200
    after = scrape(client)
    counted = {
        rule: grew(before, after, "castlegraph_resolutions_total", rule=rule)
        for rule in ("exact", "normalized", "alias", "typo", "new")
    }
    assert counted == {"exact": 2, "normalized": 1, "alias": 0, "typo": 0, "new": 2}


def test_drawer_verdicts_and_links_are_counted(client: TestClient) -> None:
    before = scrape(client)
    text = "Staging listens on port 8080 behind the load balancer"
    assert client.post(ROOM, json={"content": text}).status_code == 201
    assert client.post(ROOM, json={"content": text}).status_code == 200
    near = client.post(ROOM, json={"content": text.replace("8080", "8081")})
    assert [link["kind"] for link in near.json()["similar"]] == ["near"]
    after = scrape(client)
    assert grew(before, after, "castlegraph_drawer_writes_total", outcome="created") == 2
    assert grew(before, after, "castlegraph_drawer_writes_total", outcome="exact_copy") == 1
    assert grew(before, after, "castlegraph_similar_links_total", kind="near") == 1
    assert grew(before, after, "castlegraph_similar_links_total", kind="exact") == 0


def test_database_round_trips_are_timed_by_statement(client: TestClient) -> None:
    before = scrape(client)
    client.post(ROOM, json={"content": "a fresh drawer for the statement count"})
    after = scrape(client)
    name = "castlegraph_graph_statement_duration_seconds"
    assert grew(before, after, f"{name}_count", statement="create_drawer") >= 1
    assert grew(before, after, f"{name}_sum", statement="create_drawer") > 0
    assert value(after, "castlegraph_graph_ready") == 1


def test_jobs_are_counted_by_status_at_scrape_time(client: TestClient) -> None:
    create_job(app_store(client), "test", {}, None)  # recorded, never submitted: stays queued
    samples = scrape(client)
    jobs = {s: value(samples, "castlegraph_jobs", status=s) for s in ("queued", "running")}
    assert jobs == {"queued": 1, "running": 0}
    assert ("castlegraph_jobs", frozenset({("status", "failed")})) in samples
    assert value(samples, "process_resident_memory_bytes") > 0


def test_metrics_need_no_token(tmp_path: Path) -> None:
    settings = app_settings(tmp_path / "data", api={"tokens": ["s3cret"]})
    with running_app(settings) as client:
        assert client.get("/api/jobs").status_code == 401
        samples = scrape(client)
    refused = {"method": "GET", "route": "/api/jobs", "status": "401"}
    assert value(samples, "castlegraph_http_requests_total", **refused) == 1


def test_metrics_are_not_in_the_openapi_document(client: TestClient) -> None:
    assert "/metrics" not in client.get("/openapi.json").json()["paths"]


def test_the_review_backlog_is_hygienes_read_once_per_interval(client: TestClient) -> None:
    first = client.post(ROOM, json={"content": "Mario Lopez runs the staging cluster"}).json()
    mentions = [
        {"drawer": first["drawer"]["id"], "name": name, "kind": "person"}
        for name in ("Mario Lopez", "Maria Lopez")
    ]
    assert client.post("/api/mentions", json={"mentions": mentions}).status_code == 200
    hygiene = client.get("/api/hygiene").json()
    assert hygiene["possibly_same_as_pending"] == 1
    now = [0.0]
    backlog = ReviewBacklog(client.app.state.runtime, clock=lambda: now[0])  # type: ignore[attr-defined]

    def read() -> dict[str, float]:
        return {family.name: family.samples[0].value for family in backlog.collect()}

    assert read() == {
        "castlegraph_review_links_pending": hygiene["possibly_same_as_pending"],
        "castlegraph_duplicate_pairs_pending": hygiene["duplicate_pairs_pending"],
        "castlegraph_drawers_without_embedding": hygiene["drawers_without_embedding"],
    }
    assert client.post(ROOM, json={"content": "a drawer written meanwhile"}).status_code == 201
    missing = hygiene["drawers_without_embedding"]
    assert read()["castlegraph_drawers_without_embedding"] == missing  # not read again yet
    now[0] += BACKLOG_SECONDS
    assert read()["castlegraph_drawers_without_embedding"] == missing + 1
    names = {name for name, _ in scrape(client)}
    assert {"castlegraph_review_links_pending", "castlegraph_duplicate_pairs_pending"} <= names


def test_the_in_memory_index_states_are_shown(client: TestClient) -> None:
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    samples = scrape(client)
    for index, held in (("entity", runtime.entity_index), ("drawer", runtime.drawer_index)):
        state = "off" if held is None else held.state
        assert value(samples, "castlegraph_memory_index", index=index, state=state) == 1
        others = [s for s in ("off", "building", "ready", "failed") if s != state]
        assert all(
            value(samples, "castlegraph_memory_index", index=index, state=s) == 0 for s in others
        )
        assert ("castlegraph_memory_index", frozenset({("index", index), ("state", "failed")})) in (
            samples
        )


def test_the_in_memory_index_sizes_are_shown(client: TestClient) -> None:
    """Each ready index's array bytes and what it holds: the bench reads bytes per entity."""
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    indexes = {"entity": runtime.entity_index, "drawer": runtime.drawer_index}
    assert all(held.wait_ready(30.0) for held in indexes.values())
    drawer = client.post(ROOM, json={"content": "Ada Byron met Alan Turing"}).json()["drawer"]
    mentions = [
        {"drawer": drawer["id"], "name": name, "kind": kind}
        for name, kind in (
            ("Ada Byron", "person"),
            ("Alan Turing", "person"),
            ("Bletchley", "place"),
        )
    ]
    assert client.post("/api/mentions", json={"mentions": mentions}).status_code == 200
    samples = scrape(client)
    for (index, held), count in zip(indexes.items(), (3, 1), strict=True):
        assert value(samples, "castlegraph_memory_index_items", index=index) == count
        assert value(samples, "castlegraph_memory_index_bytes", index=index) == held.nbytes > 0


def test_mcp_tool_calls_are_counted_by_tool(client: TestClient) -> None:
    def call(name: str) -> None:
        params = {"name": name, "arguments": {}}
        message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
        answer = client.post("/mcp", json=message, headers=MCP_HEADERS)
        assert answer.status_code == 200, answer.text

    before = scrape(client)
    call("hygiene")
    call("hygiene")
    call("no_such_tool")
    after = scrape(client)
    assert grew(before, after, "castlegraph_mcp_tool_calls_total", tool="hygiene") == 2
    assert grew(before, after, "castlegraph_mcp_tool_calls_total", tool="unknown") == 1
    assert ("castlegraph_mcp_tool_calls_total", frozenset({("tool", "no_such_tool")})) not in after
