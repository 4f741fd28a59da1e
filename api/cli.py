"""The `castlegraph` command line (typer).

`serve` runs the HTTP service. The other commands reach castlegraph through `api.cli_client`:
over HTTP with `--url` (or `CASTLEGRAPH_URL`), else in-process on the data directory, falling
back to the running service that holds it. `--json` prints what the HTTP API returns.

    serve                         api.cli (here)
    mine, checkpoint, jobs        api.cli_jobs
    resolve, entity               api.cli_entities
    migrate                       api.cli_migrate (in-process only)
"""

import logging
from typing import Annotated

import typer
import uvicorn

from api import VERSION, cli_entities, cli_jobs, cli_migrate, mcp_cli
from api.cli_options import ConfigOption, DataDirOption, describe, fail, settings_from
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
) -> None:
    """Start the HTTP service (on the embedded FalkorDB unless a Neo4j URI is configured)."""
    api = {k: v for k, v in {"host": host, "port": port}.items() if v is not None}
    settings = settings_from(config, data_dir, api=api)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    from api.app import create_app  # noqa: PLC0415  # the web stack loads for `serve` only

    runtime = Runtime(settings)
    try:
        runtime.start()  # on the main thread, before serving: see `api.app`
    except CastlegraphError as error:
        fail(describe(error))
    uvicorn.run(create_app(settings, runtime), host=settings.api.host, port=settings.api.port)


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


if __name__ == "__main__":
    app()
