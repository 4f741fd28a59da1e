"""Where the service holding a data directory listens, recorded next to the directory's lock.

The lock (`graph.backends.embedded.LOCK_FILE`) says that some process owns the data directory,
not where to reach it: a service started with `--port 8951` is not at the configured 8765. So
once uvicorn has bound its socket the service records its `ServiceAddress` in `ADDRESS_FILE`,
and removes it when it stops. Tokens never go in it.
"""

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from castlegraph.api.service.settings import ANY_ADDRESS

ADDRESS_FILE = "castlegraph.address.json"
PRIVATE_FILE = 0o600
SCHEMES = frozenset({"http", "https"})
MAX_PORT = 65535


def url_of(host: str, port: int, scheme: str = "http") -> str:
    """The URL a client on this machine reaches a listener by: a service listening on every
    interface is reached on loopback."""
    host = "127.0.0.1" if host in ANY_ADDRESS else host
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}:{port}"


@dataclass(frozen=True, slots=True)
class ServiceAddress:
    """What a service records: its scheme, host, the port it really got and its pid. The CLI
    reads it only while the lock is held, and ignores a record whose process is gone (a killed
    service leaves its file behind)."""

    scheme: str
    host: str
    """The address the socket is bound to, as the kernel reports it."""
    port: int
    pid: int

    @property
    def url(self) -> str:
        return url_of(self.host, self.port, self.scheme)


def record(data_dir: Path, address: ServiceAddress) -> None:
    """Write `address` beside the lock: a temporary file of mode 0600, renamed over the old, so
    a reader sees the old record or the new one, never half of one, and the file is private to
    the user like everything in the data directory (design §8.1)."""
    fd, temporary = tempfile.mkstemp(dir=data_dir, prefix=f".{ADDRESS_FILE}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            os.fchmod(file.fileno(), PRIVATE_FILE)  # mkstemp's own mode, said out loud
            json.dump(asdict(address), file)
        os.replace(temporary, data_dir / ADDRESS_FILE)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _read(data_dir: Path) -> ServiceAddress | None:
    """The record as written, whoever wrote it; None when absent or not one."""
    try:
        fields = json.loads((data_dir / ADDRESS_FILE).read_text(encoding="utf-8"))
        address = ServiceAddress(fields["scheme"], fields["host"], fields["port"], fields["pid"])
    except (OSError, ValueError, TypeError, KeyError):
        return None
    whole = (
        address.scheme in SCHEMES
        and isinstance(address.host, str)
        and address.host != ""
        and _positive_int(address.port)
        and address.port <= MAX_PORT
        and _positive_int(address.pid)
    )
    return address if whole else None


def _positive_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal sent: only whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, as another user's
        return True
    return True


def recorded(data_dir: Path) -> ServiceAddress | None:
    """Where the service holding `data_dir` said it listens; None when nothing is recorded or
    the process that recorded it has ended."""
    address = _read(data_dir)
    return address if address is not None and _alive(address.pid) else None


def forget(data_dir: Path, pid: int) -> None:
    """Remove the record if it is `pid`'s: a service stopping leaves another's alone."""
    address = _read(data_dir)
    if address is not None and address.pid == pid:
        (data_dir / ADDRESS_FILE).unlink(missing_ok=True)
