"""`castlegraph serve`: the HTTP service, composed here.

The one module of the CLI that imports the web stack (`api.http.app`, `api.http.serving`),
and only when the command runs: the other commands reach castlegraph through `api.client`.
`tests/unit/test_architecture.py` names it as the CLI's composition point.
"""

import logging
from pathlib import Path
from typing import Annotated

import typer
from uvicorn.config import STARTUP_FAILURE

from castlegraph.api import VERSION
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
