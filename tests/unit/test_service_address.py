"""The address a service records beside its data directory's lock (`api.service.address`)."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from castlegraph.api.service import address
from castlegraph.api.service.address import (
    ADDRESS_FILE,
    ServiceAddress,
    forget,
    record,
    recorded,
    url_of,
)


def a_dead_pid() -> int:
    """The pid of a process that has ended and been reaped."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_record_reads_back_as_written_private_and_with_nothing_else(tmp_path: Path) -> None:
    here = ServiceAddress("http", "127.0.0.1", 8951, os.getpid())
    old_umask = os.umask(0)  # the mode must not depend on the umask
    try:
        record(tmp_path, here)
    finally:
        os.umask(old_umask)
    assert recorded(tmp_path) == here
    file = tmp_path / ADDRESS_FILE
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert json.loads(file.read_text()) == {
        "scheme": "http",
        "host": "127.0.0.1",
        "port": 8951,
        "pid": os.getpid(),
    }
    assert [p.name for p in tmp_path.iterdir()] == [ADDRESS_FILE]  # no temporary file left


def test_a_new_record_replaces_the_old_one_whole(tmp_path: Path) -> None:
    record(tmp_path, ServiceAddress("http", "127.0.0.1", 8951, os.getpid()))
    first = (tmp_path / ADDRESS_FILE).stat().st_ino
    record(tmp_path, ServiceAddress("http", "::1", 8952, os.getpid()))
    assert recorded(tmp_path) == ServiceAddress("http", "::1", 8952, os.getpid())
    assert (tmp_path / ADDRESS_FILE).stat().st_ino != first  # renamed over, not rewritten


def test_a_write_that_fails_leaves_the_old_record_and_no_debris(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = ServiceAddress("http", "127.0.0.1", 8951, os.getpid())
    record(tmp_path, old)

    def full_disk(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(address.json, "dump", full_disk)
    with pytest.raises(OSError, match="No space left"):
        record(tmp_path, ServiceAddress("http", "127.0.0.1", 8952, os.getpid()))
    assert recorded(tmp_path) == old
    assert [p.name for p in tmp_path.iterdir()] == [ADDRESS_FILE]


def test_a_record_left_by_an_ended_process_is_ignored(tmp_path: Path) -> None:
    record(tmp_path, ServiceAddress("http", "127.0.0.1", 8951, a_dead_pid()))
    assert (tmp_path / ADDRESS_FILE).exists()
    assert recorded(tmp_path) is None


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "[]",
        '{"scheme": "http", "host": "127.0.0.1", "port": 8951}',
        '{"scheme": "ftp", "host": "127.0.0.1", "port": 8951, "pid": PID}',
        '{"scheme": "http", "host": "", "port": 8951, "pid": PID}',
        '{"scheme": "http", "host": "127.0.0.1", "port": true, "pid": PID}',
        '{"scheme": "http", "host": "127.0.0.1", "port": 70000, "pid": PID}',
        '{"scheme": "http", "host": "127.0.0.1", "port": "8951", "pid": PID}',
        '{"scheme": "http", "host": "127.0.0.1", "port": 8951, "pid": 0}',
    ],
)
def test_a_file_that_is_not_a_whole_record_is_ignored(tmp_path: Path, text: str) -> None:
    (tmp_path / ADDRESS_FILE).write_text(text.replace("PID", str(os.getpid())))
    assert recorded(tmp_path) is None


def test_nothing_recorded_is_none(tmp_path: Path) -> None:
    assert recorded(tmp_path) is None
    assert recorded(tmp_path / "missing") is None


def test_forget_removes_only_its_own_record(tmp_path: Path) -> None:
    mine = ServiceAddress("http", "127.0.0.1", 8951, os.getpid())
    record(tmp_path, mine)
    forget(tmp_path, a_dead_pid())
    assert recorded(tmp_path) == mine
    forget(tmp_path, os.getpid())
    assert not (tmp_path / ADDRESS_FILE).exists()
    forget(tmp_path, os.getpid())  # nothing left to remove: no error


def test_a_listener_on_every_interface_is_reached_on_loopback() -> None:
    assert url_of("0.0.0.0", 8951) == "http://127.0.0.1:8951"
    assert url_of("::", 8951) == "http://127.0.0.1:8951"
    assert url_of("::1", 8951) == "http://[::1]:8951"
    assert url_of("10.0.0.5", 443, "https") == "https://10.0.0.5:443"
    assert ServiceAddress("http", "127.0.0.1", 8951, 1).url == "http://127.0.0.1:8951"
