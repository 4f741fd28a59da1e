"""How a command reaches castlegraph: one interface, in-process or over HTTP.

The embedded database belongs to one process at a time (a lock file in the data directory), so
a command talks HTTP when given `--url` (or `CASTLEGRAPH_URL`), else opens the backend
in-process, or talks to the service holding the data directory (`located`). Every answer is the
JSON the HTTP API returns, so each command is written once and `--json` prints the same thing.
"""

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from castlegraph.api.client.http import HttpClient
from castlegraph.api.client.local import LocalClient
from castlegraph.api.client.protocol import Client
from castlegraph.api.service.address import recorded, url_of
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.service.settings import Settings
from castlegraph.api.usecases.assembly import UseCases
from castlegraph.graph.backends.opener import Backend, open_backend
from castlegraph.graph.errors import DataDirInUse, GraphUnavailable


def service_url(settings: Settings) -> str:
    """Where the settings say a service listens."""
    return url_of(settings.api.host, settings.api.port)


def holder_url(settings: Settings) -> str:
    """Where the service holding the data directory listens: the address it recorded there
    (`api.service.address`: its real port, whatever the command's settings say), else (nothing
    recorded, or its process gone) where the settings say."""
    address = recorded(Path(settings.graph.data_dir))
    return address.url if address is not None else service_url(settings)


def _started(runtime: Runtime) -> bool:
    """Start the backend in-process; False when a running service holds the data directory."""
    try:
        runtime.start()
    except DataDirInUse:
        runtime.stop()
        return False
    except BaseException:
        runtime.stop()
        raise
    if not runtime.ready:  # Neo4j: the runtime would go on retrying in the background
        runtime.stop()
        raise GraphUnavailable(f"Neo4j at {runtime.settings.graph.neo4j_uri} is not reachable")
    return True


@contextmanager
def located(settings: Settings, url: str | None) -> Iterator[Runtime | str]:
    """Where a command finds the palace: a runtime started in-process on the data directory
    (stopped afterwards), or the URL of a service — `url`, else the one holding the data."""
    runtime = None if url else Runtime(settings)
    if runtime is not None and _started(runtime):
        try:
            yield runtime
        finally:
            runtime.stop()
        return
    if url is None:
        url = holder_url(settings)
        print(
            f"castlegraph: a service is using {settings.graph.data_dir}; talking to it at {url}",
            file=sys.stderr,
        )
    yield url


@contextmanager
def connect(settings: Settings, url: str | None) -> Iterator[Client]:
    """A client for the duration of one command."""
    with located(settings, url) as place:
        if isinstance(place, Runtime):
            yield LocalClient(UseCases(place), local_user=True)  # the user running the CLI
            return
        with HttpClient(place, settings) as client:
            yield client


def open_exclusive(settings: Settings, purpose: str) -> Backend:
    """The backend opened in-process for a command that needs the database to itself
    (`migrate`, `export`); a service holding the data directory is named, not waited for."""
    data_dir = Path(settings.graph.data_dir)
    try:
        backend = open_backend(Runtime(settings).neo4j, data_dir, settings.graph.embedded_port)
    except DataDirInUse as error:
        address = recorded(data_dir)
        holder = f" (pid {address.pid}, at {address.url})" if address else ""
        raise DataDirInUse(
            f"a service is using {data_dir}{holder}; stop the service first ({purpose})"
        ) from error
    try:
        backend.store.ping()
        backend.store.server()  # a Neo4j too old is refused before any statement
    except BaseException:
        backend.close()
        raise
    return backend
