"""How the service runs one of its own modules as a child process (`python -m`), and how the
two write and read the bytes they hand each other through a pipe."""

import sys
from typing import IO


def module_command(module: str, *args: str) -> list[str]:
    """The command that runs `module` with this interpreter. `-P` keeps the working directory
    off the child's module path, where `python -m` would put it first: a service started in a
    directory of the user's holding a package named like one of its own (`api`, `graph`) would
    have run that instead."""
    return [sys.executable, "-P", "-m", module, *args]


def write_all(pipe: IO[bytes], data: bytes) -> None:
    """Write every byte of `data` to `pipe`, and flush. A buffered write may return having
    written only part of a large block, and drop the rest, when a signal interrupts it (seen
    with the writer stopped and continued: `SIGSTOP`, `SIGCONT`, a profiler attaching): the
    rest is written again until none is left."""
    view = memoryview(data)
    while view:
        written = pipe.write(view)
        view = view[written or 0 :]
    pipe.flush()


def read_exactly(pipe: IO[bytes], size: int) -> bytes:
    """`size` bytes from `pipe`, read in as many parts as it gives them; `EOFError` if it ends
    first."""
    parts: list[bytes] = []
    left = size
    while left:
        part = pipe.read(left)
        if not part:
            raise EOFError("the pipe ended")
        parts.append(part)
        left -= len(part)
    return b"".join(parts)
