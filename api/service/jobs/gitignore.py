"""`.gitignore` files, parsed as git parses them and decided as git decides (design §8.1).

Matching is linear in the name (`glob`), and each name gets `MAX_MATCH_STEPS` of it: a file of
patterns that needs more is not honoured rather than honoured slowly, and so is a file past the
bounds below. The walk counts the directory failed with the reason.
"""

from dataclasses import dataclass, field
from typing import Final

from castlegraph.api.service.jobs.glob import (
    GLOBSTAR,
    SLASH,
    STAR,
    OverBudget,
    Segment,
    Steps,
    Token,
    Unmatchable,
    Wildcard,
    match_path,
    match_segment,
    tokens,
)

MAX_IGNORE_BYTES: Final = 256 * 1024
MAX_PATTERNS: Final = 10_000
MAX_PATTERN_CHARS: Final = 4096
MAX_MATCH_STEPS: Final = 200_000
"""Steps one name may take against all the patterns that apply to it: far past what real
ignore files need (one to a few per pattern), a fraction of a second of Python at worst."""


class IgnoreFileRefused(Exception):
    """A `.gitignore` too large to honour; `reason` is what the job result counts."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Pattern:
    negated: bool
    dir_only: bool
    anchored: bool
    ways: tuple[tuple[Segment, ...], ...]
    """Anchored: the whole path below the file's directory matches one of these (most patterns
    have one way; see `_ways`); else the one segment of the first way matches the name."""
    literal: str | None = None
    """An unanchored pattern without wildcards: compared, not matched."""

    def matches(self, names: tuple[str, ...], is_dir: bool, steps: Steps) -> bool:
        if self.dir_only and not is_dir:
            return False
        if self.anchored:
            return any(match_path(way, names, steps) for way in self.ways)
        steps.spend(1)
        if self.literal is not None:
            return names[-1] == self.literal
        glob = self.ways[0][0]
        return isinstance(glob, tuple) and match_segment(glob, names[-1], steps)


def _trim_trailing_spaces(line: str) -> str:
    """Git's `trim_trailing_spaces`: spaces at the end go, unless a backslash quotes one."""
    end = len(line)
    while end and line[end - 1] == " ":
        quoted = 0
        at = end - 2
        while at >= 0 and line[at] == "\\":
            quoted += 1
            at -= 1
        if quoted % 2:
            break
        end -= 1
    return line[:end]


def _segment(part: list[Token]) -> Segment:
    """A segment's tokens with runs of `*` made one; a segment of stars alone is `**`."""
    if len(part) >= 2 and all(token is STAR for token in part):
        return GLOBSTAR
    merged: list[Token] = []
    for token in part:
        if not (token is STAR and merged and merged[-1] is STAR):
            merged.append(token)
    return tuple(merged)


def _split(found: list[Token]) -> list[list[Token]]:
    parts: list[list[Token]] = [[]]
    for token in found:
        if token is SLASH:
            parts.append([])
        else:
            parts[-1].append(token)
    return parts


def _segments(text: str) -> list[Segment]:
    return [_segment(part) for part in _split(tokens(text))]


def _starstar_after_prefix(text: str) -> tuple[str, str | None] | None:
    """Git compares an anchored pattern's literal start as a prefix, then matches the rest as
    a pattern of its own, where a `**` now stands first: `a**/b` is `a` then `**/b`, so it
    matches `ab` and `ax/y/b`. Returns that prefix and what follows the `**/` (None when the
    pattern ends with it), if the pattern starts so; else None."""
    special = next((at for at, char in enumerate(text) if char in "*?[\\"), None)
    if not special or text[special - 1] == "/" or not text.startswith("**", special):
        return None
    end = special
    while end < len(text) and text[end] == "*":
        end += 1
    if end == len(text):
        return text[:special], None
    for slash in ("/", "\\/"):
        if text.startswith(slash, end):
            return text[:special], text[end + len(slash) :]
    return None


def _ways(text: str) -> tuple[tuple[Segment, ...], ...]:
    """The segment patterns an anchored pattern (leading `/` removed) matches by."""
    quirk = _starstar_after_prefix(text)
    if quirk is None:
        segments = _segments(text)
        if segments[-1] is GLOBSTAR:  # `dir/**`: everything inside, not the directory itself
            segments[-1:] = [(STAR,), GLOBSTAR]
        return (tuple(segments),)
    prefix, rest = quirk
    if rest is None:  # `a**`: anything that starts with `a`
        return ((*_segments(prefix + "*"), GLOBSTAR),)
    # `**/` takes nothing, or the prefix's segment's end and any directories after it
    return (*_ways(prefix + rest), *_ways(prefix + "*/**/" + rest))


def compile_pattern(line: str) -> Pattern | None:
    """One line of a `.gitignore` as a pattern; None for what matches nothing.

    As git reads a line: blank lines and lines starting with `#` are none; trailing spaces go
    unless quoted with a backslash; `!` negates; a trailing `/` means directories only; a
    pattern holding another `/` is anchored at its file's directory and matched against the
    path below it (`**` as a whole segment: any number of directories, and at the end at least
    one name), else against the last name only."""
    if not line or line.startswith("#"):
        return None
    text = _trim_trailing_spaces(line)
    negated = text.startswith("!")
    text = text[negated:]
    dir_only = text.endswith("/")
    text = text.removesuffix("/")
    if not text:
        return None
    try:
        if "/" in text:
            return Pattern(negated, dir_only, True, _ways(text.removeprefix("/")))
        glob = _segment(tokens(text))
    except Unmatchable:
        return None
    segment: tuple[Token, ...] = (STAR,) if isinstance(glob, Wildcard) else glob
    letters = [token for token in segment if isinstance(token, str)]
    literal = "".join(letters) if len(letters) == len(segment) else None
    return Pattern(negated, dir_only, False, ((segment,),), literal)


def parse(text: str) -> tuple[Pattern, ...]:
    """The patterns of a `.gitignore`, in order; a UTF-8 BOM and a CR before the LF are
    dropped. Refused past `MAX_PATTERNS` patterns or with a pattern over `MAX_PATTERN_CHARS`
    characters (the caller bounds the file's bytes)."""
    patterns: list[Pattern] = []
    for raw in text.removeprefix("\ufeff").split("\n"):
        line = raw.removesuffix("\r")
        if len(line) > MAX_PATTERN_CHARS:
            raise IgnoreFileRefused("ignore_pattern_too_long")
        pattern = compile_pattern(line)
        if pattern is not None:
            patterns.append(pattern)
            if len(patterns) > MAX_PATTERNS:
                raise IgnoreFileRefused("too_many_ignore_patterns")
    return tuple(patterns)


@dataclass
class IgnoreRules:
    """The patterns that apply in one directory: its own file's, then those of the directories
    above it (`outer`), shared rather than copied, so a deep tree costs one link a level."""

    base: tuple[str, ...]
    """The directory holding the patterns, as names below the mined root."""
    patterns: tuple[Pattern, ...]
    outer: "IgnoreRules | None" = None
    over_budget: bool = field(default=False, compare=False)
    """Set once a name took too many steps here: later names fail at once, not slowly."""

    def ignored(self, names: tuple[str, ...], is_dir: bool) -> bool:
        """Whether the entry at `names` (below the mined root) is ignored: the last pattern
        that matches wins, deeper files after shallower ones. (A directory ignored is not
        walked, so nothing in it can be taken back.)

        Raises `OverBudget` when deciding takes more than `MAX_MATCH_STEPS` steps."""
        level: IgnoreRules | None = self
        while level is not None:
            if level.over_budget:
                raise OverBudget(MAX_MATCH_STEPS)
            level = level.outer
        steps = Steps(MAX_MATCH_STEPS)
        level = self
        try:
            while level is not None:
                below = names[len(level.base) :]
                for pattern in reversed(level.patterns):
                    if pattern.matches(below, is_dir, steps):
                        return not pattern.negated
                level = level.outer
        except OverBudget:
            self.over_budget = True
            raise
        return False


def rules_for(
    directory: tuple[str, ...], own: tuple[Pattern, ...], outer: IgnoreRules | None
) -> IgnoreRules | None:
    """The rules inside `directory`: its own patterns on top of those above, if it has any."""
    return IgnoreRules(directory, own, outer) if own else outer
