"""The mined tree, reached only through open directory descriptors (design §8.1).

Checking a resolved path, then opening it by name, leaves a window: swap a directory for a
symlink in between and the open lands outside the root (`O_NOFOLLOW` guards the last component
only). Here the root is opened from `/` one component at a time and everything below relative
to its parent's descriptor with `O_NOFOLLOW`, so nothing outside the root can be reached.
"""

import errno
import os
import stat
from pathlib import Path
from typing import Final

DIRECTORY_FLAGS: Final = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_FLAGS: Final = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
"""`O_NONBLOCK`: even a FIFO swapped in after its type was checked cannot block the open."""
HELD_LEVELS: Final = 32
"""Descriptors of the last directory's ancestors kept open for the next open (a walk and a
sorted list of files mostly stay near it); past this many the oldest close, so any depth works."""

Names = tuple[str, ...]
"""A path below the root, one name per component."""


def reason(error: OSError) -> str:
    """What a job result says of a directory it could not open or list."""
    if error.errno == errno.ENOENT:
        return "vanished"
    if error.errno in (errno.ELOOP, errno.ENOTDIR):
        return "replaced"  # a symlink or a file where the directory was
    return "unreadable"


def _open_absolute(names: Names) -> int:
    """A descriptor on the directory `/names...`, no component followed if a symlink."""
    current = os.open("/", DIRECTORY_FLAGS)
    try:
        for name in names:
            child = os.open(name, DIRECTORY_FLAGS, dir_fd=current)
            os.close(current)
            current = child
    except BaseException:
        os.close(current)
        raise
    return current


class MinedTree:
    """A mining root held open: a directory (`single` None), or one file (`single`, its name,
    opened from its directory). `problem` says why the root could not be opened, if so."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.single: str | None = None
        self.problem: str | None = None
        self._base = -1
        self._chain: list[int] = []  # descriptors of the last directory opened and its parents
        self._names: list[str] = []
        self._first_held = 0  # the chain's descriptors before this one are closed (-1)
        if not root.is_absolute() or any(part in (".", "..") for part in root.parts):
            self.problem = "not_absolute"  # saved by an older version: resolve it nowhere
            return
        try:
            self._open_root()
        except OSError as error:
            self.problem = reason(error)

    def _open_root(self) -> None:
        if self.root == Path("/"):
            self._base = _open_absolute(())
            return
        parent = _open_absolute(self.root.parent.parts[1:])
        try:
            mode = os.stat(self.root.name, dir_fd=parent, follow_symlinks=False).st_mode
            if not stat.S_ISDIR(mode):
                self.single, self._base = self.root.name, parent
                return
            self._base = os.open(self.root.name, DIRECTORY_FLAGS, dir_fd=parent)
        except BaseException:
            os.close(parent)
            raise
        os.close(parent)

    def __enter__(self) -> "MinedTree":
        return self

    def __exit__(self, *_: object) -> None:
        self._truncate(0)
        if self._base >= 0:
            os.close(self._base)
            self._base = -1

    def _truncate(self, keep: int) -> None:
        for descriptor in self._chain[keep:]:
            if descriptor >= 0:
                os.close(descriptor)
        del self._chain[keep:], self._names[keep:]
        self._first_held = min(self._first_held, keep)

    def directory(self, names: Names) -> int:
        """A descriptor on the directory at `names`, owned by the tree and good until its
        next call. Raises OSError when a component is gone, unreadable or not a directory
        (a symlink included)."""
        if self._base < 0 or self.single is not None:
            raise FileNotFoundError(errno.ENOENT, "the mining root is not an open directory")
        if not names:
            return self._base
        keep = 0
        while keep < min(len(names), len(self._names)) and names[keep] == self._names[keep]:
            keep += 1
        if keep <= self._first_held:  # the parent it needs was closed: start from the root
            keep = 0
        self._truncate(keep)
        current = self._chain[-1] if self._chain else self._base
        for name in names[keep:]:
            current = os.open(name, DIRECTORY_FLAGS, dir_fd=current)
            self._chain.append(current)
            self._names.append(name)
            if len(self._chain) - self._first_held > HELD_LEVELS:
                os.close(self._chain[self._first_held])
                self._chain[self._first_held] = -1
                self._first_held += 1
        return current

    def entries(self, names: Names) -> list[tuple[str, bool]]:
        """The directory's entries as (name, is a directory), sorted; symlinks to directories
        left out, since the walk never follows them."""
        found = []
        with os.scandir(self.directory(names)) as listing:
            for entry in listing:
                is_dir = entry.is_dir(follow_symlinks=False)
                if not (entry.is_symlink() and entry.is_dir()):
                    found.append((entry.name, is_dir))
        return sorted(found)

    def _inside(self, names: Names) -> Names | None:
        """Where a symlink in the tree leads, as names below the root; None outside it. The
        path is only a guess at which file to open: the open itself stays in the tree."""
        if self.single is not None:
            return None
        real = Path(os.path.realpath(self.root.joinpath(*names)))
        if real == self.root or not real.is_relative_to(self.root):
            return None
        return real.relative_to(self.root).parts

    def open_file(self, names: Names) -> int | None:
        """A read descriptor on the regular file at `names`, or None when it is anything
        else: a device, FIFO or socket (opening some devices acts on them, and reading a FIFO
        would block the job thread for good), or a symlink leading out of the tree. Raises
        OSError when it cannot be reached."""
        if self._base < 0:
            raise FileNotFoundError(errno.ENOENT, "the mining root could not be opened")
        for _hop in range(2):  # the file, then the target of a symlink found in its place
            parent = self._base if self.single is not None else self.directory(names[:-1])
            mode = os.stat(names[-1], dir_fd=parent, follow_symlinks=False).st_mode
            if not stat.S_ISLNK(mode):
                break
            target = self._inside(names)
            if target is None:
                return None
            names = target
        if not stat.S_ISREG(mode):
            return None
        descriptor = os.open(names[-1], FILE_FLAGS, dir_fd=parent)
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            os.close(descriptor)
            return None
        return descriptor
