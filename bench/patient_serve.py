"""`castlegraph serve` that waits as long as a big preloaded graph takes to load (bench only).

FalkorDB rebuilds its indexes when it loads a snapshot: 13 s for 200 k entities, about a minute
for 1 M, during which it answers nothing at all (not even `LOADING`). The service's embedded
database start gives up after 20 s, and a silent socket read times out instead of being retried.
Until `graph.embedded` takes a start timeout and treats a read timeout like `LOADING`, the
mentions benchmark starts the real service through this module, which only replaces that
readiness wait; everything else is `api.cli`'s `serve` as shipped.
"""

import time

import redis

from graph import embedded
from graph.errors import GraphUnavailable

START_TIMEOUT_SECONDS = 900.0
PING_TIMEOUT_SECONDS = 5.0
POLL_SECONDS = 0.2


def _wait_until_ready(self: embedded.EmbeddedFalkorDB) -> None:
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if not self.is_running():
            raise GraphUnavailable(f"FalkorDB exited at start; see {self.data_dir}/falkordb.log")
        client = redis.Redis(
            host=embedded.HOST,
            port=self.port,
            password=self.password,
            socket_timeout=PING_TIMEOUT_SECONDS,
        )
        try:
            if client.ping():
                return
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
            pass  # not listening yet, LOADING (a ConnectionError), or silent while indexing
        finally:
            client.close()
        time.sleep(POLL_SECONDS)
    self.stop()
    raise GraphUnavailable(f"FalkorDB did not answer within {START_TIMEOUT_SECONDS:.0f} s")


def main() -> None:
    embedded.EmbeddedFalkorDB._wait_until_ready = _wait_until_ready  # type: ignore[method-assign]
    from api.cli import app  # noqa: PLC0415 - only once the wait is patched

    app()


if __name__ == "__main__":
    main()
