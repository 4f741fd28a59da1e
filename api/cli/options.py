"""What every `castlegraph` command shares: its options, its settings, its way of failing.

Expected errors (`CastlegraphError` and its subclasses, the HTTP envelope's errors included)
become one line on stderr, `castlegraph: <message>`, and exit status 1; bad usage or settings
exit with 2, as click does for a bad option. A traceback means a bug.
"""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from pydantic import ValidationError

from api.errors import describe
from api.service.settings import CONFIG_ENV, Settings, load_settings
from graph.errors import CastlegraphError
from resolver.errors import EmptyLabel

URL_ENV = "CASTLEGRAPH_URL"
EXIT_FAILED = 1
EXIT_USAGE = 2

JsonFlag = Annotated[
    bool, typer.Option("--json", help="Print the JSON the HTTP API returns, nothing else.")
]
UrlOption = Annotated[
    str | None,
    typer.Option(
        "--url",
        envvar=URL_ENV,
        help="Talk to the service at this URL instead of opening the data directory.",
        show_default=False,
    ),
]
DataDirOption = Annotated[Path | None, typer.Option(help="Embedded database and job state.")]
ConfigOption = Annotated[Path | None, typer.Option(help="A castlegraph.toml file.")]


def fail(message: str, status: int = EXIT_FAILED) -> NoReturn:
    typer.echo(f"castlegraph: {message}", err=True)
    raise typer.Exit(status)


def settings_from(
    config: Path | None, data_dir: Path | None = None, **sections: dict[str, Any]
) -> Settings:
    """Settings from the file, the environment, then the flags that were given."""
    if config is not None:
        os.environ[CONFIG_ENV] = str(config)
    if data_dir is not None:
        sections["graph"] = {**sections.get("graph", {}), "data_dir": data_dir}
    overrides = {name: values for name, values in sections.items() if values}
    try:
        return load_settings(**overrides)
    except (ValidationError, ValueError) as error:
        fail(f"invalid settings:\n{error}", EXIT_USAGE)


@contextmanager
def reported_errors() -> Iterator[None]:
    """Turn expected errors into `castlegraph: <message>` and exit status 1."""
    try:
        yield
    except CastlegraphError as error:
        fail(describe(error))
    except EmptyLabel as error:  # the resolver's one error, raised below the routes' checks
        fail(str(error))
