"""The `castlegraph` command line (typer).

`serve` runs the HTTP service. The other commands reach castlegraph through `api.cli_client`:
over HTTP with `--url` (or `CASTLEGRAPH_URL`), else in-process on the data directory, falling
back to the running service that holds it. `--json` prints what the HTTP API returns.

    serve                         api.cli (here)
    mine, checkpoint, jobs        api.cli_jobs
    resolve, entity               api.cli_entities
    migrate                       api.cli_migrate (in-process only)
    doctor                        api.cli_doctor
    export                        api.cli_export (in-process only)
"""

import logging
from typing import Annotated

import typer
import uvicorn

from api import VERSION, cli_doctor, cli_entities, cli_export, cli_jobs, cli_migrate, mcp_cli
from api.cli_options import ConfigOption, DataDirOption, describe, fail, settings_from
from api.logs import LogFormat, configure_logging, use_json
from api.runtime import Runtime
from graph.errors import CastlegraphError

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
    configure_logging(json=use_json(log_format), level=logging.INFO)
    from api.app import create_app  # noqa: PLC0415  # the web stack loads for `serve` only

    runtime = Runtime(settings)
    try:
        runtime.start()  # on the main thread, before serving: see `api.app`
    except CastlegraphError as error:
        fail(describe(error))
    uvicorn.run(
        create_app(settings, runtime),
        host=settings.api.host,
        port=settings.api.port,
        log_config=None,  # keep `configure_logging`'s format
        access_log=False,  # `api.logs.RequestLog` writes one without the query string
    )


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(f"castlegraph {VERSION}")


app.command()(cli_jobs.mine)
app.command()(cli_jobs.checkpoint)
app.command()(cli_migrate.migrate)
app.command()(cli_entities.resolve)
app.command()(cli_entities.entity)
app.command()(cli_jobs.jobs)
app.command()(mcp_cli.mcp)
app.command()(cli_doctor.doctor)
app.command()(cli_export.export)


if __name__ == "__main__":
    app()
