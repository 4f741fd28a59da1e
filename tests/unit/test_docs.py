"""The project explains itself: every section a file cites exists in docs/design.md, and no file
points at a document outside the repository."""

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "design.md"
CITATION = re.compile(r"§(\d+(?:\.\d+)*)")  # every section sign in the project cites the notes
HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", re.MULTILINE)
OUTSIDE = re.compile(r"DESIGN(?:\.md)? ?§|ENGINES\.md|\.\./shared/|DESIGN\.md")
GIT = shutil.which("git") or "git"
CITING_SUFFIXES = {".py", ".cypher", ".md", ".toml", ".grass", ".yml", ".yaml", ".sh", ".mjs"}


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(
        [GIT, "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    paths = [ROOT / name for name in listed]
    return [
        p
        for p in paths
        if p.is_file()
        and (p.suffix in CITING_SUFFIXES or p.parent.name == "scripts")
        and "node_modules" not in p.parts
    ]


def design_sections() -> set[str]:
    return set(HEADING.findall(DESIGN.read_text(encoding="utf-8")))


def test_design_notes_number_their_sections() -> None:
    sections = design_sections()
    assert {"2", "4.3", "5.3", "5.4", "6", "7", "10", "11"} <= sections


def test_every_cited_section_exists() -> None:
    sections = design_sections()
    missing = {
        (path.relative_to(ROOT).as_posix(), number)
        for path in tracked_text_files()
        for number in CITATION.findall(path.read_text(encoding="utf-8", errors="replace"))
        if number not in sections
    }
    assert missing == set()


def test_nothing_cites_a_document_outside_the_repository() -> None:
    this_file = Path(__file__).resolve()
    offenders = {
        path.relative_to(ROOT).as_posix()
        for path in tracked_text_files()
        if path.resolve() != this_file
        and OUTSIDE.search(path.read_text(encoding="utf-8", errors="replace"))
    }
    assert offenders == set()
