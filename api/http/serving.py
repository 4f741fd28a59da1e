"""uvicorn's server, recording where it listens once its socket is bound (`api.service.address`).

uvicorn binds after the app's startup, so the lifespan cannot know the port; the record is
written from the bound socket itself, the port it really got. It is removed when the server
shuts down, before the app's shutdown stops the database and lets the data directory's lock go.
A record that cannot be written only costs the commands their way to this service (they try
the configured address), never the service itself.
"""

import contextlib
import logging
import os
import socket
from pathlib import Path

import uvicorn
from fastapi import FastAPI

from castlegraph.api.service.address import ServiceAddress, forget, record
from castlegraph.api.service.settings import Settings

log = logging.getLogger("castlegraph")


class RecordingServer(uvicorn.Server):
    """A `uvicorn.Server` that records its address in `data_dir` (None: records nothing)."""

    def __init__(self, config: uvicorn.Config, data_dir: Path | None) -> None:
        super().__init__(config)
        self._data_dir = data_dir
        self._pid = os.getpid()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started and self._data_dir is not None:
            self._record(self._data_dir)

    def _record(self, data_dir: Path) -> None:
        listening = self.servers[0].sockets[0].getsockname()
        scheme = "https" if self.config.ssl else "http"
        address = ServiceAddress(scheme, str(listening[0]), int(listening[1]), self._pid)
        try:
            record(data_dir, address)
        except OSError as error:
            log.warning(
                "could not record the service's address in %s (%s); commands on this data "
                "directory will look for it at the configured port",
                data_dir,
                error.strerror,
            )
        else:
            log.info("listening at %s; recorded in %s", address.url, data_dir)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self._data_dir is not None:
            try:
                forget(self._data_dir, self._pid)
            except OSError as error:  # a stale record is ignored once this process is gone
                log.warning("could not remove the service's address record: %s", error.strerror)
        await super().shutdown(sockets=sockets)


def serve_recorded(app: FastAPI, settings: Settings, data_dir: Path | None) -> bool:
    """Serve `app` until stopped, as `uvicorn.run` would; False when it never started."""
    config = uvicorn.Config(
        app,
        host=settings.api.host,
        port=settings.api.port,
        log_config=None,  # keep `configure_logging`'s format
        access_log=False,  # `api.service.logs.RequestLog` writes one without the query string
    )
    server = RecordingServer(config, data_dir)
    with contextlib.suppress(KeyboardInterrupt):  # as `uvicorn.run`: Ctrl-C is a clean stop
        server.run()
    return server.started
