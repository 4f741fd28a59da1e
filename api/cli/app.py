"""The `castlegraph` command line (typer).

`serve` runs the HTTP service. The other commands reach castlegraph through `api.client.connect`:
over HTTP with `--url` (or `CASTLEGRAPH_URL`), else in-process on the data directory, falling
back to the running service that holds it. `--json` prints what the HTTP API returns.

    serve                         api.cli.app (here)
    mine, checkpoint, jobs        api.cli.jobs
    resolve, entity               api.cli.entities
    review                        api.cli.review
    migrate                       api.cli.migrate (in-process only)
    doctor                        api.cli.doctor
    export                        api.cli.export (in-process only)
"""

import logging
from pathlib import Path
from typing import Annotated

import typer
from uvicorn.config import STARTUP_FAILURE

from castlegraph.api import VERSION
from castlegraph.api.cli import doctor as doctor_commands
from castlegraph.api.cli import entities as entities_commands
from castlegraph.api.cli import export as export_commands
from castlegraph.api.cli import jobs as jobs_commands
from castlegraph.api.cli import mcp as mcp_commands
from castlegraph.api.cli import migrate as migrate_commands
from castlegraph.api.cli import review as review_commands
from castlegraph.api.cli.options import ConfigOption, DataDirOption, fail_with, settings_from
from castlegraph.api.service import heap
from castlegraph.api.service.logs import LogFormat, configure_logging, use_json
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.service.settings import (
    Settings,
    environment_names,
    settings_file,
    settings_sources,
)
from castlegraph.resolver.errors import CastlegraphError

log = logging.getLogger("castlegraph")

app = typer.Typer(
    help="castlegraph: entity resolution and memory deduplication.",
    no_args_is_help=True,
)


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Address to listen on.")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on (default 8765).")] = None,
    data_dir: DataDirOption = None,
    config: ConfigOption = None,
    log_format: Annotated[
        LogFormat | None, typer.Option(help="json or text (default: json unless on a terminal).")
    ] = None,
) -> None:
    """Start the HTTP service (on the embedded FalkorDB unless a Neo4j URI is configured)."""
    api = {k: v for k, v in {"host": host, "port": port}.items() if v is not None}
    settings = settings_from(config, data_dir, api=api)
    configure_logging(json=use_json(log_format), level=settings.api.log_level.upper())
    log_start(settings, config)
    if settings.api.exposed_without_tokens:  # allowed by api.allow_unauthenticated (design §8.1)
        log.warning(
            "serving %s without tokens (api.allow_unauthenticated): anyone who can reach it "
            "can read and change the graph; set CASTLEGRAPH_API_TOKENS",
            settings.api.host,
        )
    from castlegraph.api.http.app import create_app  # noqa: PLC0415  # the web stack loads for `serve` only
    from castlegraph.api.http.serving import serve_recorded  # noqa: PLC0415

    heap.tune()
    runtime = Runtime(settings)
    try:
        runtime.start()  # on the main thread, before serving: see `api.http.app`
    except CastlegraphError as error:
        fail_with(error)
    embedded = runtime.backend.embedded if runtime.backend else None
    # Only the embedded database locks its data directory, so only there is the address looked up.
    started = serve_recorded(
        create_app(settings, runtime), settings, embedded.data_dir if embedded else None
    )
    if not started:  # the port was taken, or the app failed its startup
        raise typer.Exit(STARTUP_FAILURE)


def log_start(settings: Settings, config: Path | None) -> None:
    """What an operator asks first of a service's log: which version, set up from where, and
    whether tokens guard it. Variables by name and tokens by count only: values may be secret."""
    file = settings_file(config)
    log.info(
        "castlegraph %s starting: settings from %s; tokens %s; log level %s",
        VERSION,
        settings_sources(config),
        f"on ({len(settings.api.tokens)})" if settings.api.tokens else "off",
        settings.api.log_level,
        extra={
            "version": VERSION,
            "config_file": str(file.resolve()) if file.is_file() else None,
            "environment": environment_names(),
            "tokens": bool(settings.api.tokens),
            "log_level": settings.api.log_level,
        },
    )


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(f"castlegraph {VERSION}")


app.command()(jobs_commands.mine)
app.command()(jobs_commands.checkpoint)
app.command()(migrate_commands.migrate)
app.command()(entities_commands.resolve)
app.command()(entities_commands.entity)
app.command()(review_commands.review)
app.command()(jobs_commands.jobs)
app.command()(mcp_commands.mcp)
app.command()(doctor_commands.doctor)
app.command()(export_commands.export)


if __name__ == "__main__":
    app()
