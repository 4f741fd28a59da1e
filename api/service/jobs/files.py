"""Which files of a directory mining reads: text files, minus what `.gitignore` ignores.

Binary files are recognised by content (a NUL byte, or bytes that are not UTF-8), not by name,
so code in any language and extension-less notes are read. `.git` is always skipped; every
`.gitignore` found applies to its own directory and below, as git does. Hidden files and
directories (a leading dot) are configuration, not memories, and are skipped too. Only regular
files inside the mined path are read (design §8.1): what a directory links to elsewhere, and
devices or FIFOs that would never finish reading, are not its memories either.
"""

import os
import stat
from pathlib import Path

import pathspec

MAX_FILE_BYTES = 10 * 1024 * 1024
SNIFF_BYTES = 8192


def _spec(directory: Path, root: Path) -> pathspec.GitIgnoreSpec | None:
    # Read like any mined file: a `.gitignore` that is a FIFO or links out of the tree is none.
    text = read_text(directory / ".gitignore", root)
    if text is None:
        return None
    return pathspec.GitIgnoreSpec.from_lines(text.splitlines())


def _ignored(path: Path, is_dir: bool, specs: list[tuple[Path, pathspec.GitIgnoreSpec]]) -> bool:
    for base, spec in specs:
        relative = path.relative_to(base).as_posix() + ("/" if is_dir else "")
        if spec.match_file(relative):
            return True
    return False


def _open_regular(path: Path, boundary: Path) -> int | None:
    """A read descriptor on `path` if it is a regular file inside `boundary`, else None.

    The mined tree decides what is read, not where its links point: a symlink out of it is not
    followed. Devices, FIFOs and sockets are never opened for reading — `/dev/zero` or a FIFO
    without a writer would block the single job thread for good. The type is checked before
    opening (opening some devices acts on them) and again on the descriptor (the file may have
    been swapped in between); `O_NONBLOCK` keeps even that open from waiting.
    """
    real = path.resolve()
    if not real.is_relative_to(boundary) or not stat.S_ISREG(os.stat(real).st_mode):
        return None
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
    descriptor = os.open(real, flags)
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        return None
    return descriptor


def read_text(path: Path, boundary: Path) -> str | None:
    """The file's text, or None for what is not read: binaries, non-UTF-8 files, files over
    10 MiB, anything but a regular file, and symlinks leading out of `boundary` (the resolved
    path being mined)."""
    try:
        descriptor = _open_regular(path, boundary)
        if descriptor is None:
            return None
        with os.fdopen(descriptor, "rb") as file:
            if os.fstat(file.fileno()).st_size > MAX_FILE_BYTES:
                return None
            data = file.read(MAX_FILE_BYTES + 1)  # it may have grown since
    except (OSError, RuntimeError):  # gone, unreadable, a socket, a symlink loop
        return None
    if len(data) > MAX_FILE_BYTES or b"\0" in data[:SNIFF_BYTES]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def list_documents(root: Path) -> list[str]:
    """Relative POSIX paths of candidate text files under `root`, sorted."""
    if root.is_file():
        return [root.name]
    found: list[str] = []
    specs_by_dir: dict[Path, list[tuple[Path, pathspec.GitIgnoreSpec]]] = {}
    for current, dirs, files in os.walk(root):
        here = Path(current)
        inherited = specs_by_dir.get(here, [])
        own = _spec(here, root)
        specs = [*inherited, (here, own)] if own else inherited
        dirs[:] = sorted(
            d for d in dirs if not d.startswith(".") and not _ignored(here / d, True, specs)
        )
        for name in dirs:
            specs_by_dir[here / name] = specs
        for name in sorted(files):
            if not name.startswith(".") and not _ignored(here / name, False, specs):
                found.append((here / name).relative_to(root).as_posix())
    return sorted(found)
