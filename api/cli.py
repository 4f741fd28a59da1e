"""The `castlegraph` command line (typer): `serve`, `version`; later issues add more."""

import logging
import os
from pathlib import Path
from typing import Annotated, Any

import typer
import uvicorn
from pydantic import ValidationError

from api.app import VERSION, create_app
from api.runtime import Runtime
from api.settings import CONFIG_ENV, Settings, load_settings
from graph.errors import CastlegraphError

app = typer.Typer(
    help="castlegraph: entity resolution and memory deduplication.", no_args_is_help=True
)


def _settings(config: Path | None, **sections: dict[str, Any]) -> Settings:
    if config is not None:
        os.environ[CONFIG_ENV] = str(config)
    overrides = {name: values for name, values in sections.items() if values}
    try:
        return load_settings(**overrides)
    except (ValidationError, ValueError) as error:
        typer.echo(f"castlegraph: invalid settings:\n{error}", err=True)
        raise typer.Exit(2) from error


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Address to listen on.")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on (default 8765).")] = None,
    data_dir: Annotated[Path | None, typer.Option(help="Embedded database and job state.")] = None,
    config: Annotated[Path | None, typer.Option(help="A castlegraph.toml file.")] = None,
) -> None:
    """Start the HTTP service (on the embedded FalkorDB unless a Neo4j URI is configured)."""
    api = {k: v for k, v in {"host": host, "port": port}.items() if v is not None}
    graph = {"data_dir": data_dir} if data_dir is not None else {}
    settings = _settings(config, api=api, graph=graph)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    runtime = Runtime(settings)
    try:
        runtime.start()  # on the main thread, before serving: see `api.app`
    except CastlegraphError as error:
        typer.echo(f"castlegraph: {error.message}", err=True)
        raise typer.Exit(1) from error
    uvicorn.run(create_app(settings, runtime), host=settings.api.host, port=settings.api.port)


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(f"castlegraph {VERSION}")


if __name__ == "__main__":
    app()
