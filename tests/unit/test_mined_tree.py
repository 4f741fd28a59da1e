"""The mined tree through descriptors (design §8.1): what it opens, and what it refuses."""

import os
from pathlib import Path

import pytest

from castlegraph.api.service.jobs.tree import HELD_LEVELS, MinedTree


def _read(tree: MinedTree, *names: str) -> str | None:
    descriptor = tree.open_file(names)
    if descriptor is None:
        return None
    with os.fdopen(descriptor) as file:
        return file.read()


def test_files_at_any_depth_open_in_any_order(tmp_path: Path) -> None:
    """Past `HELD_LEVELS` the shallowest descriptors are closed; a later open that needs one
    of them starts again from the root."""
    depth = HELD_LEVELS + 8
    level = tmp_path
    for number in range(depth):
        (level / "side").mkdir()
        (level / "side" / "f.md").write_text(f"side {number}")
        level /= "d"
        level.mkdir()
    (level / "f.md").write_text("bottom")
    order = [depth, *range(depth - 1, -1, -1), depth, 0, HELD_LEVELS // 2, depth - 1, 8]
    with MinedTree(tmp_path) as tree:
        read = [
            _read(tree, *("d",) * d, "f.md")
            if d == depth
            else _read(tree, *("d",) * d, "side", "f.md")
            for d in order
        ]
    assert read == [f"side {d}" if d < depth else "bottom" for d in order]


def test_a_symlink_on_the_way_is_never_followed(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "real").mkdir(parents=True)
    outside.mkdir()
    (root / "real" / "note.md").write_text("inside")
    (outside / "note.md").write_text("outside")
    (root / "link").symlink_to(outside)
    (root / "to-inside.md").symlink_to(root / "real" / "note.md")
    (root / "to-outside.md").symlink_to(outside / "note.md")
    with MinedTree(root) as tree:
        assert _read(tree, "real", "note.md") == "inside"
        assert _read(tree, "to-inside.md") == "inside"  # a link within the tree is read
        assert _read(tree, "to-outside.md") is None
        with pytest.raises(OSError, match=r"Not a directory|Too many levels of symbolic links"):
            _read(tree, "link", "note.md")  # `O_DIRECTORY | O_NOFOLLOW` on the symlink


def test_a_root_that_is_a_file_or_missing(tmp_path: Path) -> None:
    (tmp_path / "one.md").write_text("one file")
    with MinedTree(tmp_path / "one.md") as tree:
        assert (tree.single, _read(tree, "one.md")) == ("one.md", "one file")
    with MinedTree(tmp_path / "missing") as tree:
        assert tree.problem == "vanished"
    (tmp_path / "swapped").symlink_to(tmp_path)
    with MinedTree(tmp_path / "swapped" / "one.md") as tree:  # resolved once, swapped since
        assert tree.problem == "replaced"
    with MinedTree(Path("relative")) as tree:
        assert tree.problem == "not_absolute"
