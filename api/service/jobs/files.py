"""Which files of a directory mining reads: text files, minus what `.gitignore` ignores.

Binary files are recognised by content, as git does, not by name, so code in any language and
extension-less notes are read. `.git`, hidden files and what a `.gitignore` ignores (in its own
directory and below) are skipped; only regular files inside the mined path are read, through
the tree's descriptors (`tree`, design §8.1).
"""

import codecs
import os
from dataclasses import dataclass, field

from castlegraph.api.service.content import holds_forbidden_characters
from castlegraph.api.service.jobs.gitignore import (
    MAX_IGNORE_BYTES,
    IgnoreFileRefused,
    IgnoreRules,
    Pattern,
    parse,
    rules_for,
)
from castlegraph.api.service.jobs.glob import OverBudget
from castlegraph.api.service.jobs.tree import MinedTree, Names, reason

MAX_FILE_BYTES = 10 * 1024 * 1024
SNIFF_BYTES = 8192
IGNORE_FILE = ".gitignore"


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


def names_of(relative: str) -> Names:
    return tuple(relative.split("/"))


class _TooLarge(Exception):
    """A file past the size its reader takes."""


def _read_bytes(tree: MinedTree, names: Names, limit: int) -> bytes | None:
    """The bytes of the regular file at `names`, at most `limit`; None for anything else."""
    descriptor = tree.open_file(names)
    if descriptor is None:
        return None
    with os.fdopen(descriptor, "rb") as file:
        if os.fstat(file.fileno()).st_size > limit:
            raise _TooLarge
        data = file.read(limit + 1)  # it may have grown since
    if len(data) > limit:
        raise _TooLarge
    return data


def read_document(tree: MinedTree, relative: str) -> str | None:
    """The text of a file to mine; None for what is not a memory (binaries, anything but a
    regular file, symlinks leading out of the tree, a file gone or replaced since it was
    listed).

    A file that starts like text but cannot be stored raises `BadFile`: over 10 MiB
    (`too_large`), a NUL byte past the sniffed start (`nul_byte`: FalkorDB strings end at a
    NUL, so the stored text would be silently cut), bytes past it that are not UTF-8
    (`undecodable_content`), control characters the drawer routes refuse too
    (`control_characters`), or no permission to read it (`unreadable`).
    """
    try:
        data = _read_bytes(tree, names_of(relative), MAX_FILE_BYTES)
    except _TooLarge as error:
        raise BadFile("too_large") from error
    except PermissionError as error:
        raise BadFile("unreadable") from error
    except (OSError, RuntimeError):  # gone, replaced, a socket, a symlink loop
        return None
    if data is None:
        return None
    if _looks_binary(data[:SNIFF_BYTES]):
        return None
    if b"\0" in data:
        raise BadFile("nul_byte")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadFile("undecodable_content") from error
    if holds_forbidden_characters(text):
        raise BadFile("control_characters")
    return text


def _own_patterns(tree: MinedTree, directory: Names) -> tuple[Pattern, ...]:
    """The patterns of the directory's `.gitignore`. One that is not a regular file in the
    tree ignores nothing; one that cannot be read or is past the bounds is refused."""
    try:
        data = _read_bytes(tree, (*directory, IGNORE_FILE), MAX_IGNORE_BYTES)
    except _TooLarge as error:
        raise IgnoreFileRefused("ignore_file_too_large") from error
    except PermissionError as error:
        raise IgnoreFileRefused("ignore_file_unreadable") from error
    except (OSError, RuntimeError):  # gone since it was listed
        return ()
    if data is None:
        return ()
    return parse(data.decode("utf-8", "surrogateescape"))  # names are decoded the same way


@dataclass
class Listing:
    files: list[str] = field(default_factory=list)
    """Relative POSIX paths of candidate text files, sorted."""
    failures: list[tuple[str, str]] = field(default_factory=list)
    """(directory, reason) for each directory left out: `sub/dir/`, the root as `./`."""


def _shown_directory(names: Names) -> str:
    return "".join(f"{name}/" for name in names) or "./"


def _visit(
    tree: MinedTree, directory: Names, outer: IgnoreRules | None
) -> tuple[IgnoreRules | None, list[tuple[str, bool]]]:
    """The rules inside a directory (its own `.gitignore` on top of those above) and the
    entries mining goes on with: not hidden, not ignored."""
    entries = tree.entries(directory)
    own = _own_patterns(tree, directory) if (IGNORE_FILE, False) in entries else ()
    rules = rules_for(directory, own, outer)
    kept = [
        (name, is_dir)
        for name, is_dir in entries
        if not name.startswith(".")
        and not (rules is not None and rules.ignored((*directory, name), is_dir))
    ]
    return rules, kept


def list_documents(tree: MinedTree) -> Listing:
    """Candidate text files under the tree's root. A root that is not a directory is its own
    one file, so a device or FIFO asked for is counted as skipped.

    Hidden files and directories (a leading dot) are configuration, not memories. The walk
    keeps a list of pending directories, not a call stack, so any depth works. A directory
    that cannot be listed, or whose `.gitignore` cannot be honoured, is left out with its
    reason (`Listing.failures`), never failing the job: mining what the user asked to ignore
    is worse than mining less."""
    if tree.problem is not None:
        return Listing(failures=[("./", tree.problem)])
    if tree.single is not None:
        return Listing(files=[tree.single])
    listing = Listing()
    pending: list[tuple[Names, IgnoreRules | None]] = [((), None)]
    while pending:
        directory, outer = pending.pop()
        try:
            rules, kept = _visit(tree, directory, outer)
        except OSError as error:
            listing.failures.append((_shown_directory(directory), reason(error)))
            continue
        except IgnoreFileRefused as error:
            listing.failures.append((_shown_directory(directory), error.reason))
            continue
        except OverBudget:
            listing.failures.append((_shown_directory(directory), "ignore_rules_too_costly"))
            continue
        for name, is_dir in kept:
            if is_dir:
                pending.append(((*directory, name), rules))
            else:
                listing.files.append("/".join((*directory, name)))
    listing.files.sort()
    listing.failures.sort()
    return listing
