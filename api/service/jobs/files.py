"""Which files of a directory mining reads: text files, minus what `.gitignore` ignores.

Binary files are recognised by content (a NUL byte, or bytes that are not UTF-8, in the first
8 KiB, as git does), not by name, so code in any language and extension-less notes are read.
A file that starts as text but cannot be stored whole is a bad file (`BadFile`), which the job
counts as failed. `.git` is always skipped; every `.gitignore` found applies to its own
directory and below, as git does. Hidden files and directories (a leading dot) are
configuration, not memories, and are skipped too. Only regular files inside the mined path
are read (design §8.1): what a directory links to elsewhere, and devices or FIFOs that would
never finish reading, are not its memories either.
"""

import codecs
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


class BadFile(Exception):
    """A file mining should read but cannot: counted in the job's `failed` under `reason`,
    never a failure of the whole job (design §11)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _looks_binary(start: bytes) -> bool:
    """What git calls binary, judged on the first bytes only: a NUL, or bytes that cannot
    begin UTF-8 text (a character cut by the sniff window's end is fine)."""
    if b"\0" in start:
        return True
    try:
        codecs.getincrementaldecoder("utf-8")().decode(start, final=False)
    except UnicodeDecodeError:
        return True
    return False


def read_document(path: Path, boundary: Path) -> str | None:
    """The text of a file to mine; None for what is not a memory (binaries, anything but a
    regular file, symlinks leading out of `boundary`, a file gone since it was listed).

    A file that starts like text but cannot be stored raises `BadFile`: over 10 MiB
    (`too_large`), a NUL byte past the sniffed start (`nul_byte`: FalkorDB strings end at a
    NUL, so the stored text would be silently cut), bytes past it that are not UTF-8
    (`undecodable_content`), or no permission to read it (`unreadable`).
    """
    try:
        descriptor = _open_regular(path, boundary)
        if descriptor is None:
            return None
        with os.fdopen(descriptor, "rb") as file:
            if os.fstat(file.fileno()).st_size > MAX_FILE_BYTES:
                raise BadFile("too_large")
            data = file.read(MAX_FILE_BYTES + 1)  # it may have grown since
    except PermissionError as error:
        raise BadFile("unreadable") from error
    except (OSError, RuntimeError):  # gone, a socket, a symlink loop
        return None
    if len(data) > MAX_FILE_BYTES:
        raise BadFile("too_large")
    if _looks_binary(data[:SNIFF_BYTES]):
        return None
    if b"\0" in data:
        raise BadFile("nul_byte")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadFile("undecodable_content") from error


def read_text(path: Path, boundary: Path) -> str | None:
    """`read_document`, with a bad file read as none (a `.gitignore` that cannot be read
    ignores nothing)."""
    try:
        return read_document(path, boundary)
    except BadFile:
        return None


def list_documents(root: Path) -> list[str]:
    """Relative POSIX paths of candidate text files under `root`, sorted. A root that is not a
    directory is its own one file, so a device or FIFO asked for is counted as skipped."""
    if not root.is_dir():
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
