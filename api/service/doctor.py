"""The checks behind `castlegraph doctor`, each a plain sentence and, when it fails, a fix.

They run in the order a person would look: settings, backend, data directory or Neo4j, schema,
migrations, embeddings provider, running service. Doctor reports and never repairs: it opens
the database without applying the schema or migrating, and when a running service holds the
embedded data directory (the database is its alone) it asks that service over HTTP instead.
"""

import importlib.util
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

import httpx2 as httpx

from castlegraph.api.service.settings import Settings, safe_uri
from castlegraph.graph.backends.opener import neo4j_driver
from castlegraph.resolver import core
from castlegraph.resolver.errors import CastlegraphError

Status = Literal["ok", "fail", "skip"]
HEALTH_TIMEOUT_SECONDS = 3.0
START_HINT = "start `castlegraph serve` once, or run `castlegraph migrate`: both create it"


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    status: Status
    message: str
    fix: str | None = None

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def ok(name: str, message: str) -> Check:
    return Check(name, "ok", message)


def failed(name: str, message: str, fix: str) -> Check:
    return Check(name, "fail", message, fix)


def skipped(name: str, message: str) -> Check:
    return Check(name, "skip", message)


def error_text(error: Exception) -> str:
    """One line: our errors' message, else the driver's own first argument (the neo4j driver's
    `str()` can be a bare GQL status such as `50N42: Unexpected error`)."""
    text = getattr(error, "message", None) if isinstance(error, CastlegraphError) else None
    text = text or (str(error.args[0]) if error.args else "") or type(error).__name__
    return " ".join(text.split())


def backend_check(settings: Settings) -> Check:
    graph = settings.graph
    if graph.neo4j_uri:
        return ok(
            "backend",
            f"Neo4j at {safe_uri(graph.neo4j_uri)} (database {graph.neo4j_database}, "
            f"user {graph.neo4j_user}), because CASTLEGRAPH_NEO4J_URI / graph.neo4j_uri is set; "
            f"{neo4j_driver()}",
        )
    return ok("backend", f"embedded FalkorDB with its data in {graph.data_dir} (no Neo4j URI set)")


def data_dir_check(data_dir: Path) -> Check:
    if not data_dir.exists():
        parent = next((p for p in data_dir.parents if p.exists()), Path("/"))
        if os.access(parent, os.W_OK | os.X_OK):
            return ok("data directory", f"{data_dir} does not exist yet; serve will create it")
        return failed(
            "data directory",
            f"{data_dir} does not exist and {parent} is not writable",
            "choose another directory with --data-dir or CASTLEGRAPH_DATA_DIR",
        )
    if not data_dir.is_dir() or not os.access(data_dir, os.W_OK | os.X_OK):
        return failed(
            "data directory",
            f"{data_dir} is not a writable directory",
            "make it writable by this user (chown/chmod), or choose another with --data-dir",
        )
    return ok("data directory", f"{data_dir} is writable")


def embeddings_check(settings: Settings) -> Check:
    provider = settings.embeddings.provider
    if provider == "none":
        return ok("embeddings", "no embeddings provider configured (vectors come from clients)")
    if importlib.util.find_spec("sentence_transformers") is None:
        return failed(
            "embeddings",
            f"provider {provider} is configured but sentence_transformers is not installed",
            "pip install 'castlegraph[embeddings]' (a CPU build of torch first), or set "
            "CASTLEGRAPH_EMBEDDINGS_PROVIDER=none",
        )
    return ok("embeddings", f"provider {provider} is importable")


def core_check(settings: Settings) -> Check:
    """Which core a service started with these settings runs its rules on (`resolver.core`):
    the choice is made here as the service makes it, so `native` where the compiled core does
    not load fails here as it would stop the service."""
    choice = settings.dedup.core
    try:
        running = core.choose(choice)
    except core.NativeCoreUnavailable:
        return failed(
            "core",
            "core = native (CASTLEGRAPH_CORE), but the compiled core is not built or does not "
            "load here: the service will not start",
            "reinstall castlegraph where a Rust toolchain (cargo) exists, or set "
            "CASTLEGRAPH_CORE=auto",
        )
    if running.name == "native":
        return ok("core", f"the compiled core, {running} (core = {choice})")
    why = "as chosen" if choice == "python" else "the compiled core is not built here"
    return ok("core", f"the pure-Python core, {running} (core = {choice}: {why})")


@dataclass(frozen=True, slots=True)
class ServiceAnswer:
    url: str
    status: int | None
    """None when nothing answered."""
    body: dict[str, Any]


def ask_service(url: str) -> ServiceAnswer:
    try:
        response = httpx.get(f"{url}/api/health", timeout=HEALTH_TIMEOUT_SECONDS)
    except httpx.TransportError:
        return ServiceAnswer(url, None, {})
    try:
        body = response.json()
    except ValueError:
        body = {}
    return ServiceAnswer(url, response.status_code, body if isinstance(body, dict) else {})


@dataclass(frozen=True, slots=True)
class Expected:
    """Why a service must answer, and what to do when none does: it depends on what pointed
    at it (`--url`, the address a service recorded, or only a lock and the settings). A
    service that does not answer is called hung only where it recorded that it listens: a lock
    alone may be a service still starting, or a command using the directory in-process."""

    why: str
    fix: str


def service_check(answer: ServiceAnswer, expected: Expected | None) -> Check:
    """`expected`: a service must answer (None: none need be running). Its health answers 200
    only once the schema and migrations are in place."""
    if answer.status is None:
        message = f"no service answers at {answer.url}"
        if expected is not None:
            return failed("service", f"{message}, though {expected.why}", expected.fix)
        return skipped("service", f"{message} (start one with `castlegraph serve`)")
    if answer.status == 200:
        backend = answer.body.get("backend", "?")
        running = answer.body.get("core")
        on_core = f", {running} core {answer.body.get('core_version', '?')}" if running else ""
        return ok("service", f"a service answers at {answer.url}: healthy, on {backend}{on_core}")
    error = answer.body.get("error", {})
    reason = error.get("message", "") if isinstance(error, dict) else ""
    return failed(
        "service",
        f"the service at {answer.url} answers {answer.status}: {reason or 'not healthy'}",
        "read its log; it answers 503 until the database answers and migrations ran",
    )
