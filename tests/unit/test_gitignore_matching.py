"""`.gitignore` patterns as git reads them, matched in time linear in the name (design §8.1).

The table's expected answers are what git 2.39 keeps (`git ls-files -o --exclude-standard` on
the same tree); `test_random_ignore_files_keep_what_git_keeps` asks git itself when it is
installed, and pathspec is the second opinion on patterns where it follows git.
"""

import os
import shutil
import subprocess
from itertools import pairwise
from pathlib import Path

import pathspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castlegraph.api.service.jobs.gitignore import (
    MAX_MATCH_STEPS,
    MAX_PATTERN_CHARS,
    MAX_PATTERNS,
    IgnoreFileRefused,
    IgnoreRules,
    compile_pattern,
    parse,
)
from castlegraph.api.service.jobs.glob import OverBudget, Steps

HOSTILE = "*a*a*a*a*a*a*a*a*b"


def kept(text: str, files: list[str]) -> set[str]:
    """The files a walk keeps with `text` as the root's `.gitignore`: a file is left out when
    it or a directory above it is ignored."""
    rules = IgnoreRules((), parse(text))
    found = set()
    for path in files:
        names = tuple(path.split("/"))
        parents = any(rules.ignored(names[:depth], True) for depth in range(1, len(names)))
        if not parents and not rules.ignored(names, False):
            found.add(path)
    return found


CASES = [
    ("", ["a.md", "d/b.md"], {"a.md", "d/b.md"}),
    (
        "# a comment\n\n*.log\n",
        ["# a comment", "run.log", "d/deep.log", "n.md"],
        {"# a comment", "n.md"},
    ),
    ("\\#hash\n\\!bang\n", ["#hash", "!bang", "hash", "bang"], {"bang", "hash"}),
    (
        "*.log\n!keep.log\n",
        ["a.log", "keep.log", "d/keep.log", "d/b.log"],
        {"d/keep.log", "keep.log"},
    ),
    ("!keep.log\n*.log\n", ["a.log", "keep.log"], set()),  # the last match wins
    (
        "build/\n",
        ["build/out.md", "src/build/x.md", "build.md", "lib/build"],
        {"build.md", "lib/build"},
    ),
    ("/build\n", ["build/out.md", "src/build/x.md", "build.md"], {"build.md", "src/build/x.md"}),
    ("doc/frotz\n", ["doc/frotz", "a/doc/frotz", "doc/frotzx"], {"a/doc/frotz", "doc/frotzx"}),
    ("**/foo\n", ["foo", "a/foo", "a/b/foo/x", "foox"], {"foox"}),
    ("**/foo/bar\n", ["foo/bar", "a/foo/bar", "a/foo/baz"], {"a/foo/baz"}),
    ("abc/**\n", ["abc/x", "abc/d/y", "abcd/x", "x/abc/y"], {"abcd/x", "x/abc/y"}),
    ("a/**/b\n", ["a/b", "a/x/b", "a/x/y/b", "a/x/c", "b"], {"a/x/c", "b"}),
    ("d/\n!d/keep.md\n", ["d/keep.md", "d/other.md", "e.md"], {"e.md"}),  # no way back in
    ("d/*\n!d/keep.md\n", ["d/keep.md", "d/other.md", "d/sub/keep.md"], {"d/keep.md"}),
    ("[a-c].md\n", ["a.md", "b.md", "d.md", "-.md"], {"-.md", "d.md"}),
    ("[!a-c].md\n", ["a.md", "d.md"], {"a.md"}),
    ("[]x].md\n", ["].md", "x.md", "y.md"], {"y.md"}),
    ("[[:digit:]]*\n", ["1a", "a1", "9d/x"], {"a1"}),
    ("?.md\n", ["a.md", "ab.md"], {"ab.md"}),
    ("\\*.md\n", ["*.md", "x.md"], {"x.md"}),
    ("sp\\ \nend  \n", ["sp ", "sp", "end", "end  "], {"end  ", "sp"}),
    ("[ab\n", ["[ab", "a"], {"[ab", "a"}),  # an unclosed class matches nothing
    ("tail\\\n", ["tail", "tail\\"], {"tail", "tail\\"}),  # nor does a trailing backslash
    ("a**/b\n", ["ab", "ax/y/b", "a/b", "c/ab", "ac"], {"ac", "c/ab"}),  # git's prefix rule
    ("a**/a[!a]/**\n", ["a/ax", "a/ab/c", "aab/c", "x/ab/c"], {"a/ax", "x/ab/c"}),
    (HOSTILE + "\n", ["a" * 60, "a" * 60 + "b", "d/" + "a" * 59 + "b"], {"a" * 60}),
    ("x\r\n", ["x", "y"], {"y"}),
    ("\ufeffbom\n", ["bom", "x"], {"x"}),
    ("*\n!*/\n!*.md\n", ["a.md", "a.txt", "d/b.md", "d/b.txt"], {"a.md", "d/b.md"}),
]


@pytest.mark.parametrize(("text", "files", "expected"), CASES)
def test_a_walk_keeps_what_git_keeps(text: str, files: list[str], expected: set[str]) -> None:
    assert kept(text, files) == expected


def test_deeper_ignore_files_come_after_shallower_ones() -> None:
    root = IgnoreRules((), parse("*.log\n"))
    inner = IgnoreRules(("d",), parse("!keep.log\n/local.md\n"), root)
    assert [inner.ignored(("d", name), False) for name in ("keep.log", "a.log", "local.md")] == [
        False,
        True,
        True,
    ]
    assert inner.ignored(("d", "e", "local.md"), False) is False  # anchored at `d/`


def _steps(pattern: str, name: str) -> tuple[bool, int]:
    compiled = compile_pattern(pattern)
    assert compiled is not None
    steps = Steps(10**9)
    return compiled.matches((name,), False, steps), steps.spent


@pytest.mark.timeout(60)  # the backtracking matcher took minutes here; this takes milliseconds
def test_the_hostile_pattern_costs_steps_linear_in_the_name() -> None:
    lengths = [100, 200, 400, 800, 1600]
    misses = [_steps(HOSTILE, "a" * n) for n in lengths]
    hits = [_steps(HOSTILE, "a" * n + "b") for n in lengths]
    assert [matched for matched, _ in misses] == [False] * len(lengths)
    assert [matched for matched, _ in hits] == [True] * len(lengths)
    for (_, shorter), (_, longer) in pairwise(misses):
        assert longer <= 2 * shorter + 64  # doubling the name at most doubles the work
    assert misses[-1][1] <= 4 * 1600


def test_a_globstar_pattern_costs_steps_linear_in_the_depth() -> None:
    pattern = compile_pattern("**/a*/**/a*/**/a*/**/b")
    assert pattern is not None
    spent = []
    for depth in (100, 200, 400, 800):
        steps = Steps(10**9)
        assert pattern.matches(("a",) * depth, False, steps) is False
        spent.append(steps.spent)
    for shorter, longer in pairwise(spent):
        assert longer <= 2 * shorter + 64


def test_a_name_needing_too_many_steps_fails_then_fails_at_once() -> None:
    rules = IgnoreRules((), parse("*" + "a" * 1000 + "b\n"))
    with pytest.raises(OverBudget):
        rules.ignored(("a" * 5000,), False)  # ~5,000 x 1,000 steps, past the budget
    assert rules.over_budget
    with pytest.raises(OverBudget):
        rules.ignored(("short",), False)
    assert MAX_MATCH_STEPS < 5000 * 1000


def test_ignore_files_past_the_bounds_are_refused_with_their_reason() -> None:
    with pytest.raises(IgnoreFileRefused) as many:
        parse("x\n" * (MAX_PATTERNS + 1))
    with pytest.raises(IgnoreFileRefused) as long:
        parse("a" * (MAX_PATTERN_CHARS + 1))
    assert (many.value.reason, long.value.reason) == (
        "too_many_ignore_patterns",
        "ignore_pattern_too_long",
    )
    assert len(parse("# only comments\n" * (MAX_PATTERNS + 1))) == 0


# --- differential tests ---------------------------------------------------------------------

NAMES = st.sampled_from(["a", "b", "ab", "ba", "x"])
SEGMENT_ATOMS = st.sampled_from(["a", "b", "x", "*", "?", "[ab]", "ab", "*x"])


@st.composite
def patterns(draw: st.DrawFn, *, exotic: bool) -> str:
    atoms = (
        SEGMENT_ATOMS | st.sampled_from(["[!a]", "***", "a**", "\\*", "[]a]"])
        if exotic
        else SEGMENT_ATOMS
    )
    segments = draw(
        st.lists(
            st.one_of(st.just("**"), st.lists(atoms, min_size=1, max_size=2).map("".join)),
            min_size=1,
            max_size=3,
        )
    )
    text = "/".join(segments)
    if draw(st.booleans()):
        text = "/" + text
    if segments[-1] != "**" and draw(st.booleans()):  # pathspec reads `x/**/` as `x/**`
        text += "/"
    if exotic and draw(st.booleans()):
        text = "!" + text
    return text


@st.composite
def trees(draw: st.DrawFn) -> list[str]:
    files = draw(
        st.lists(
            st.tuples(st.lists(NAMES, max_size=3), st.sampled_from(["a", "ab", "b", "fa"])),
            min_size=1,
            max_size=6,
        )
    )
    paths = {"/".join([*dirs, leaf + "x"]) for dirs, leaf in files}
    return sorted(p for p in paths if not any(q.startswith(p + "/") for q in paths))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(patterns(exotic=False), min_size=1, max_size=3), files=trees())
def test_benign_patterns_keep_what_pathspec_keeps(lines: list[str], files: list[str]) -> None:
    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    assert kept("\n".join(lines), files) == {f for f in files if not spec.match_file(f)}


GIT = shutil.which("git")
QUIET_GIT = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "HOME": os.devnull,
    "XDG_CONFIG_HOME": os.devnull,
}
"""No user or system configuration: a global excludes file would change the answers."""


def _git_kept(directory: Path, text: str, files: list[str]) -> set[str]:
    assert GIT is not None
    shutil.rmtree(directory, ignore_errors=True)
    subprocess.run([GIT, "init", "-q", str(directory)], check=True, env=QUIET_GIT)
    (directory / ".gitignore").write_text(text + "\n")
    for path in files:
        (directory / path).parent.mkdir(parents=True, exist_ok=True)
        (directory / path).write_text("x")
    listed = subprocess.run(
        [GIT, "-C", str(directory), "ls-files", "-o", "--exclude-standard", "-z"],
        capture_output=True,
        check=True,
        env=QUIET_GIT,
    ).stdout.decode()
    return {path for path in listed.split("\0") if path and path != ".gitignore"}


@pytest.mark.skipif(GIT is None, reason="git is not installed")
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(lines=st.lists(patterns(exotic=True), min_size=1, max_size=3), files=trees())
def test_random_ignore_files_keep_what_git_keeps(
    tmp_path: Path, lines: list[str], files: list[str]
) -> None:
    text = "\n".join(lines)
    assert kept(text, files) == _git_kept(tmp_path / "repo", text, files)
