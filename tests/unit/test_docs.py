"""The project explains itself: every section a file cites exists in docs/design.md, every
relative link of the documentation leads to a file and heading that exist, and no file points at
a document outside the repository."""

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
DESIGN_SIZE_LIMIT = 60_000  # bytes: the design says how it is now, not how it came to be
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCED = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
MARKDOWN_HEADING = re.compile(r"^#{1,6} (.+?)\s*#*$", re.MULTILINE)
URL_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*:", re.IGNORECASE)


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


def documentation_pages() -> list[Path]:
    return [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md", ROOT / "tests" / "README.md"]


def heading_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: code marks dropped, lower case, punctuation removed,
    spaces to hyphens."""
    text = INLINE_CODE.sub(lambda m: m.group(0)[1:-1], heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors_of(page: Path) -> set[str]:
    """Every anchor a page offers; a repeated heading gets `-1`, `-2`, ... as on GitHub."""
    seen: dict[str, int] = {}
    anchors = set()
    for heading in MARKDOWN_HEADING.findall(FENCED.sub("", page.read_text(encoding="utf-8"))):
        anchor = heading_anchor(heading)
        repeats = seen.get(anchor, 0)
        seen[anchor] = repeats + 1
        anchors.add(anchor if repeats == 0 else f"{anchor}-{repeats}")
    return anchors


def broken_links(page: Path) -> set[tuple[str, str]]:
    """The relative links of a page (outside code) whose file or heading does not exist."""
    prose = INLINE_CODE.sub("", FENCED.sub("", page.read_text(encoding="utf-8")))
    broken = set()
    for target in LINK.findall(prose):
        if URL_SCHEME.match(target):
            continue
        path, _, fragment = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        if not destination.exists() or (
            fragment and destination.suffix == ".md" and fragment not in anchors_of(destination)
        ):
            broken.add((page.relative_to(ROOT).as_posix(), target))
    return broken


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


def test_design_notes_stay_short() -> None:
    assert len(DESIGN.read_bytes()) < DESIGN_SIZE_LIMIT


def test_heading_anchors_follow_github() -> None:
    assert heading_anchor("8.1 Security") == "81-security"
    assert heading_anchor("`castlegraph doctor`") == "castlegraph-doctor"
    assert heading_anchor("The embedded database and the service's children") == (
        "the-embedded-database-and-the-services-children"
    )


def test_every_documentation_link_resolves() -> None:
    pages = documentation_pages()
    assert ROOT / "docs" / "design.md" in pages
    broken = {link for page in pages for link in broken_links(page)}
    assert broken == set()
