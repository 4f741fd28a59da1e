"""Which files of a directory mining reads: text files, minus what `.gitignore` ignores.

Binary files are recognised by content (a NUL byte, or bytes that are not UTF-8), not by name,
so code in any language and extension-less notes are read. `.git` is always skipped; every
`.gitignore` found applies to its own directory and below, as git does. Hidden files and
directories (a leading dot) are configuration, not memories, and are skipped too.
"""

import os
from pathlib import Path

import pathspec

MAX_FILE_BYTES = 10 * 1024 * 1024
SNIFF_BYTES = 8192


def _spec(directory: Path) -> pathspec.GitIgnoreSpec | None:
    ignore = directory / ".gitignore"
    if not ignore.is_file():
        return None
    return pathspec.GitIgnoreSpec.from_lines(
        ignore.read_text(encoding="utf-8", errors="replace").splitlines()
    )


def _ignored(path: Path, is_dir: bool, specs: list[tuple[Path, pathspec.GitIgnoreSpec]]) -> bool:
    for base, spec in specs:
        relative = path.relative_to(base).as_posix() + ("/" if is_dir else "")
        if spec.match_file(relative):
            return True
    return False


def read_text(path: Path) -> str | None:
    """The file's text, or None for binaries, non-UTF-8 files and files over 10 MiB."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:SNIFF_BYTES]:
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
        own = _spec(here)
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
