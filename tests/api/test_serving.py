"""`api.http.serving.RecordingServer`: uvicorn recording the address it really bound.

Asked for port 0, the kernel picks one: the record must name that port, not the one asked for,
and must go when the server stops. A plain app stands in for castlegraph's (no database here).
"""

import os
import threading
from pathlib import Path

import httpx2 as httpx
import uvicorn
from fastapi import FastAPI

from castlegraph.api.http.serving import RecordingServer
from castlegraph.api.service.address import ADDRESS_FILE, ServiceAddress, recorded
from tests.support.polling import eventually


def test_the_record_names_the_port_the_kernel_gave_and_goes_with_the_server(
    tmp_path: Path,
) -> None:
    app = FastAPI()
    app.get("/here")(lambda: {"here": True})
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_config=None, lifespan="off")
    server = RecordingServer(config, tmp_path)
    thread = threading.Thread(target=server.run, name="recording-server")
    thread.start()
    try:
        address = eventually(lambda: recorded(tmp_path), "the server recorded its address")
        bound = server.servers[0].sockets[0].getsockname()[1]
        assert bound != 0
        assert address == ServiceAddress("http", "127.0.0.1", bound, os.getpid())
        assert httpx.get(f"{address.url}/here").json() == {"here": True}
    finally:
        server.should_exit = True
        thread.join(timeout=30)
    assert not thread.is_alive()
    assert not (tmp_path / ADDRESS_FILE).exists()
