"""`castlegraph doctor`: is this installation ready to serve? One line per check, ✔ or ✘.

The service asked is the one holding the data directory, at its recorded address
(`api.service.address`), else at the configured one; `--url` asks that service instead. Exit
status 0 when nothing failed, else 1; `--json` prints `{"ok", "checks": [{"name", "status",
"message", "fix"}]}`, status `ok`, `fail` or `skip` (a check that did not apply, not a fault).
The checks themselves are in `api.service.doctor`.
"""

import os
import time
from pathlib import Path

import typer
from pydantic import ValidationError

from castlegraph.api.cli.options import EXIT_FAILED, CommonOptions, with_common_options
from castlegraph.api.cli.output import emit
from castlegraph.api.client.connect import service_url
from castlegraph.api.client.protocol import Json
from castlegraph.api.service.address import recorded
from castlegraph.api.service.doctor import (
    START_HINT,
    Check,
    Expected,
    ServiceAnswer,
    ask_service,
    backend_check,
    core_check,
    data_dir_check,
    embeddings_check,
    error_text,
    failed,
    ok,
    service_check,
    skipped,
)
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.service.settings import (
    CONFIG_ENV,
    Settings,
    load_settings,
    safe_uri,
    scrub,
    settings_sources,
)
from castlegraph.graph.backends.opener import Backend, open_backend
from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.errors import DataDirInUse, GraphMisconfigured, UnsupportedServer
from castlegraph.graph.schema import migrations
from castlegraph.graph.schema.inspection import SchemaState, schema_state

MARKS = {"ok": "✔", "fail": "✘", "skip": "–"}
BUILDING_WAIT_SECONDS = 10.0
"""How long an index the database is still building may take before doctor reports it."""
BUILDING_POLL_SECONDS = 0.1


def _settings(config: Path | None, data_dir: Path | None) -> tuple[Settings | None, Check]:
    if config is not None:
        os.environ[CONFIG_ENV] = str(config)
    overrides = {"graph": {"data_dir": data_dir}} if data_dir is not None else {}
    sources = settings_sources(config)
    try:
        settings = load_settings(**overrides)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in item['loc'])}: {item['msg']}"
            for item in error.errors()
        )
        fix = "correct the keys named above (file or CASTLEGRAPH_* variable)"
        return None, failed("settings", f"invalid ({sources}): {problems}", fix)
    except ValueError as error:
        return None, failed("settings", str(error), f"point {CONFIG_ENV} at a readable file")
    return settings, ok("settings", f"valid: {sources}")


def _store_checks(store: GraphStore, memory_indexes: bool) -> list[Check]:
    state = _settled_schema(store, memory_indexes)
    if state.complete:
        schema = ok("schema", f"all {len(state.expected)} constraints and indexes are in place")
    else:
        problems = [f"missing {', '.join(state.missing)}"] if state.missing else []
        problems += [f"not ready {', '.join(state.not_ready)}"] if state.not_ready else []
        schema = failed("schema", "; ".join(problems), START_HINT)
    done = migrations.applied(store)
    todo = migrations.pending(store)
    if todo:
        names = ", ".join(f"{m.version} ({m.name})" for m in todo)
        fix = "run `castlegraph migrate` (stop the service first), or restart the service"
        return [schema, failed("migrations", f"{len(done)} applied, pending: {names}", fix)]
    return [schema, ok("migrations", f"{len(done)} applied, none pending")]


def _settled_schema(store: GraphStore, memory_indexes: bool) -> SchemaState:
    """The schema's state, once no index it has is still building or `BUILDING_WAIT_SECONDS`
    have passed: the embedded database builds its indexes again each time it loads its file,
    so a check right after doctor started it saw them under construction, on an empty palace
    too (seen once in CI, after `castlegraph migrate`)."""
    deadline = time.monotonic() + BUILDING_WAIT_SECONDS
    state = schema_state(store, memory_indexes=memory_indexes)
    while state.not_ready and not state.missing and time.monotonic() < deadline:
        time.sleep(BUILDING_POLL_SECONDS)
        state = schema_state(store, memory_indexes=memory_indexes)
    return state


def _asked_service(service: ServiceAnswer, how: str) -> list[Check]:
    """A service owns the database (it holds the embedded data directory, or `--url` named
    it): its health speaks for schema and migrations."""
    asked = ok("database", how)
    if service.status == 200:
        word = "the running service answers healthy, so it applied them"
        return [asked, ok("schema", word), ok("migrations", word)]
    why = "the service is not healthy"
    return [
        asked,
        skipped("schema", f"{why}; not checked"),
        skipped("migrations", f"{why}; not checked"),
    ]


def _database_checks(settings: Settings) -> tuple[list[Check], bool]:
    """The checks, and whether a running service holds the embedded data directory (then the
    database is asked through it, by the caller)."""
    target = Runtime(settings).neo4j
    checks: list[Check] = []
    data_dir = Path(settings.graph.data_dir)
    if target is None:
        checks.append(data_dir_check(data_dir))
        if checks[0].status == "fail" or not data_dir.exists():
            return [*checks, skipped("database", "no database yet; serve creates it")], False
    where = safe_uri(target.uri) if target else f"embedded FalkorDB in {data_dir}"
    backend: Backend | None = None
    try:
        backend = open_backend(target, data_dir, settings.graph.embedded_port)
        backend.store.ping()
        server = backend.store.server()
        store_checks = _store_checks(backend.store, settings.dedup.memory_index)
    except DataDirInUse:
        return checks, True
    except UnsupportedServer as error:
        fix = f"upgrade the Neo4j server to {error.details['minimum']} or later"
        return [*checks, failed("database", f"{where} answers, but {error.message}", fix)], False
    except GraphMisconfigured as error:  # the message names the setting to correct
        message = scrub(error.message, settings)
        return [*checks, failed("database", message, "correct the setting named above")], False
    except Exception as error:  # doctor reports whatever stops the database, whatever it is
        message = scrub(error_text(error), settings)
        fix = (
            "check the URI, that Neo4j runs, and the user and password"
            if target
            else ("read the message above; `castlegraph serve` prints the database's own log")
        )
        return [*checks, failed("database", f"{where} did not answer: {message}", fix)], False
    finally:
        if backend is not None:
            backend.close()
    return [*checks, ok("database", f"{where} answers: {server}"), *store_checks], False


def _holder(settings: Settings) -> tuple[str, Expected]:
    """Where the service holding the data directory listens, and what its silence means."""
    address = recorded(Path(settings.graph.data_dir))
    if address is not None:
        return address.url, Expected(
            f"the service holding the data directory (pid {address.pid}) recorded it listens there",
            "it does not answer within seconds: is it hung? read its log, and restart it",
        )
    return service_url(settings), Expected(
        "the data directory is locked and no service recorded where it listens",
        "the lock is held by a service still starting, or by a command using the directory "
        "in-process (`castlegraph mcp`, `migrate`, `export`): wait for it, or stop it",
    )


def _named_service_checks(settings_check: Check, url: str) -> list[Check]:
    """`--url`: the named service is checked, and the data directory left to it."""
    service = ask_service(url.rstrip("/"))
    named = Expected(
        "it was named with --url",
        "check the URL, and that `castlegraph serve` runs there",
    )
    return [
        settings_check,
        *_asked_service(
            service, f"the service at {service.url} (--url) has it; asked it over HTTP"
        ),
        service_check(service, named),
    ]


def run_checks(config: Path | None, data_dir: Path | None, url: str | None = None) -> list[Check]:
    settings, loaded = _settings(config, data_dir)
    if settings is None:
        return [loaded]
    if url is not None:
        return _named_service_checks(loaded, url)
    database, held = _database_checks(settings)
    if held:
        holder, expected = _holder(settings)
        service = ask_service(holder)
        how = "a running service holds the data directory; asked it over HTTP"
        database += _asked_service(service, how)
        checked = service_check(service, expected)
    else:
        checked = service_check(ask_service(service_url(settings)), None)
    return [
        loaded,
        backend_check(settings),
        *database,
        core_check(settings),
        embeddings_check(settings),
        checked,
    ]


def render(answer: Json) -> str:
    checks: list[Json] = answer["checks"]
    width = max(len(check["name"]) for check in checks)
    lines = []
    for check in checks:
        lines.append(f"{MARKS[check['status']]} {check['name'].ljust(width)}  {check['message']}")
        if check.get("fix"):
            lines.append(f"  {' ' * width}  fix: {check['fix']}")
    problems = sum(check["status"] == "fail" for check in checks)
    lines.append("all good" if not problems else f"{problems} problem(s) found")
    return "\n".join(lines)


@with_common_options()
def doctor(*, options: CommonOptions) -> None:
    """Check settings, database, schema, migrations, embeddings and the running service.

    With --url, the service there is checked and its health speaks for the database."""
    checks = run_checks(options.config, options.data_dir, options.url)
    answer = {
        "ok": all(check.status != "fail" for check in checks),
        "checks": [check.as_json() for check in checks],
    }
    emit(answer, options.as_json, render)
    if not answer["ok"]:
        raise typer.Exit(EXIT_FAILED)
