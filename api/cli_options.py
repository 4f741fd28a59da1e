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

from api.settings import CONFIG_ENV, Settings, load_settings
from graph.errors import CastlegraphError
from resolver.errors import EmptyLabel

URL_ENV = "CASTLEGRAPH_URL"
EXIT_FAILED = 1
EXIT_USAGE = 2
Json = dict[str, Any]

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


class CliInputError(CastlegraphError):
    """A file the command reads itself (a checkpoint's JSONL) is not what it should be."""

    code = "input::invalid"


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


def describe(error: CastlegraphError) -> str:
    """The message, plus the details a person needs to act on it (which path, which field)."""
    details = error.details
    if isinstance(details, dict) and details:
        shown = ", ".join(
            f"{k}: {v}"
            for k, v in details.items()
            if not isinstance(v, dict | list) and str(v) not in error.message
        )
        return f"{error.message} ({shown})" if shown else error.message
    if isinstance(details, list) and details:
        return f"{error.message}: " + "; ".join(_detail(item) for item in details[:5])
    return error.message


def _detail(item: Any) -> str:
    if isinstance(item, dict) and "msg" in item:
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        return f"{where}: {item['msg']}" if where else str(item["msg"])
    if isinstance(item, dict):
        return ", ".join(f"{k} {v}" for k, v in item.items())
    return str(item)


@contextmanager
def reported_errors() -> Iterator[None]:
    """Turn expected errors into `castlegraph: <message>` and exit status 1."""
    try:
        yield
    except CastlegraphError as error:
        fail(describe(error))
    except EmptyLabel as error:  # the resolver's one error, raised below the routes' checks
        fail(str(error))
