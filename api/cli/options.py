"""What every `castlegraph` command shares: its options, its settings, its way of failing.

A command states only its own options and takes the shared ones (`--json`, `--url`,
`--data-dir`, `--config`) as one `CommonOptions` (`with_common_options`). Expected errors
become one line on stderr, `castlegraph: <message>`, and the exit status `EXIT_BY_ERROR` gives
(1); bad usage or settings exit with 2, as click does. A traceback means a bug outside the tree.
"""

import functools
import inspect
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from pydantic import ValidationError

from castlegraph.api.client.connect import connect
from castlegraph.api.client.protocol import Client
from castlegraph.api.errors import describe
from castlegraph.api.service.settings import CONFIG_ENV, Settings, load_settings
from castlegraph.resolver.errors import CastlegraphError

URL_ENV = "CASTLEGRAPH_URL"
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_BY_ERROR: dict[type[CastlegraphError], int] = {CastlegraphError: EXIT_FAILED}
"""The CLI door's table: every error of the tree ends a command with 1, a bug's included (its
message is castlegraph's own words; a driver's text stays in its cause)."""

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


def exit_status(kind: type[CastlegraphError]) -> int:
    """The exit status of an error of this class: the nearest class of its MRO listed."""
    return next(EXIT_BY_ERROR[c] for c in kind.__mro__ if c in EXIT_BY_ERROR)


def fail_with(error: CastlegraphError) -> NoReturn:
    """End the command on an error: `castlegraph: <message and details>`, its exit status."""
    fail(describe(error), exit_status(type(error)))


@contextmanager
def reported_errors() -> Iterator[None]:
    """Turn castlegraph's errors into `castlegraph: <message>` and their exit status."""
    try:
        yield
    except CastlegraphError as error:
        fail_with(error)


@dataclass(frozen=True, slots=True)
class CommonOptions:
    """The shared options as given; those a command does not offer keep their defaults."""

    as_json: bool = False
    url: str | None = None
    data_dir: Path | None = None
    config: Path | None = None

    def settings(self) -> Settings:
        """The command's settings: bad ones end it with exit status 2 before any work."""
        return settings_from(self.config, self.data_dir)

    @contextmanager
    def client(self, settings: Settings) -> Iterator[Client]:
        """The client for one command (`api.client.connect`), its errors reported as one line."""
        with reported_errors(), connect(settings, self.url) as client:
            yield client


Command = Callable[..., None]
_SHARED = [
    inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=option)
    for name, option, default in [
        ("as_json", JsonFlag, False),
        ("url", UrlOption, None),
        ("data_dir", DataDirOption, None),
        ("config", ConfigOption, None),
    ]
]


def with_common_options(*, json: bool = True, url: bool = True) -> Callable[[Command], Command]:
    """Give a command the shared options after its own; `json=False` or `url=False` leaves out
    `--json` or `--url`. The command declares `options: CommonOptions` instead of them.

    typer sees one signature, the command's options first and the shared ones after, so every
    command has the same names, help texts, environment variables and defaults for them."""
    shared = [p for p in _SHARED if (p.name != "as_json" or json) and (p.name != "url" or url)]

    def decorate(command: Command) -> Command:
        own = dict(inspect.signature(command).parameters)
        if own.pop("options", None) is None:
            raise TypeError(f"{command.__name__} must take `options: CommonOptions`")

        def run(**given: Any) -> None:  # typer calls commands with keywords
            common = CommonOptions(**{p.name: given.pop(p.name) for p in shared})
            command(**given, options=common)

        functools.update_wrapper(run, command, updated=())  # its name and help text
        parameters = [*own.values(), *shared]
        # What typer reads (`inspect.signature` stops at `__signature__`, whatever it wraps).
        run.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in parameters}
        return run

    return decorate
