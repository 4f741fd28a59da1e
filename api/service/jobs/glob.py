"""Gitignore's wildcards, matched without backtracking (design §8.1).

A regular expression built from `*a*a*a*a*b` backtracks exponentially on a long run of `a`s,
holding the GIL all the while: one hostile `.gitignore` would freeze every thread. Here a
pattern is a tuple of tokens matched by the greedy two-pointer walk, at most name length ×
pattern length steps, each counted in a `Steps` budget so a caller can bound one name's work.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final


class OverBudget(Exception):
    """The matching of one name needed more steps than its budget allowed."""


class Steps:
    """A step budget shared by the matches of one name."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.spent = 0

    def spend(self, steps: int) -> None:
        self.spent += steps
        if self.spent > self.limit:
            raise OverBudget(self.spent)


class Wildcard:
    """`*` within a segment, `?` (any one character), or `**` as a whole segment."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


STAR: Final = Wildcard("*")
ANY: Final = Wildcard("?")
GLOBSTAR: Final = Wildcard("**")
SLASH: Final = Wildcard("/")

_POSIX_CLASSES: dict[str, Callable[[str], bool]] = {
    "alnum": str.isalnum,
    "alpha": str.isalpha,
    "blank": lambda c: c in " \t",
    "cntrl": lambda c: ord(c) < 32 or ord(c) == 127,
    "digit": str.isdigit,
    "graph": lambda c: 32 < ord(c) < 127,
    "lower": str.islower,
    "print": lambda c: 32 <= ord(c) < 127,
    "punct": lambda c: 32 < ord(c) < 127 and not c.isalnum(),
    "space": lambda c: c in " \t\n\r\f\v",
    "upper": str.isupper,
    "xdigit": lambda c: c in "0123456789abcdefABCDEF",
}
"""wildmatch's classes, on ASCII as git's `sane_ctype` has them."""


@dataclass(frozen=True)
class CharClass:
    """`[...]`: one character from a set, ranges or POSIX classes, or (negated) none of them."""

    negated: bool
    chars: frozenset[str]
    ranges: tuple[tuple[str, str], ...]
    classes: tuple[str, ...]

    def matches(self, char: str) -> bool:
        found = (
            char in self.chars
            or any(low <= char <= high for low, high in self.ranges)
            or any(char.isascii() and _POSIX_CLASSES[name](char) for name in self.classes)
        )
        return found != self.negated


Token = str | Wildcard | CharClass
"""A literal character, a wildcard, or a class."""


class Unmatchable(Exception):
    """A pattern git's wildmatch aborts on (an unclosed `[`, an unknown class, a trailing
    backslash): it matches nothing."""


def _escaped(pattern: str, at: int) -> str:
    """The character a backslash at `at - 1` quotes; a backslash at the end aborts."""
    if at >= len(pattern):
        raise Unmatchable
    return pattern[at]


def _posix(pattern: str, at: int) -> tuple[str | None, int]:
    """At `[:`: the class it names and the index of its closing `]`, or None (and `at`) when
    no `:]` closes it, which makes the `[` a plain character."""
    end = pattern.find("]", at + 2)
    if end < 0:
        raise Unmatchable
    if pattern[end - 1] != ":" or end - 1 < at + 2:
        return None, at
    name = pattern[at + 2 : end - 1]
    if name not in _POSIX_CLASSES:
        raise Unmatchable
    return name, end


def _class(pattern: str, start: int) -> tuple[CharClass, int]:
    """The class opening at `pattern[start] == "["`, and the index just past its `]`, as
    wildmatch reads it (a `]` first is a member, `-` makes a range only between two)."""
    at = start + 1
    negated = pattern[at : at + 1] in ("!", "^")
    at += negated
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    classes: list[str] = []
    previous: str | None = None
    while at == start + 1 + negated or pattern[at : at + 1] != "]":
        char = _escaped(pattern, at)
        if char == "\\":
            at += 1
            previous = _escaped(pattern, at)
            chars.add(previous)
        elif char == "-" and previous is not None and pattern[at + 1 : at + 2] not in ("", "]"):
            at += 1
            high = pattern[at]
            if high == "\\":
                at += 1
                high = _escaped(pattern, at)
            ranges.append((previous, high))
            previous = None
        elif pattern.startswith("[:", at) and (found := _posix(pattern, at))[0] is not None:
            classes.append(str(found[0]))
            previous, at = None, found[1]
        else:
            chars.add(char)
            previous = char
        at += 1
    return CharClass(negated, frozenset(chars), tuple(ranges), tuple(classes)), at + 1


_SPECIAL: dict[str, Token] = {"*": STAR, "?": ANY, "/": SLASH}


def tokens(pattern: str) -> list[Token]:
    """The tokens of a pattern: escapes resolved, classes parsed, `/` as `SLASH`.

    Git's `wildmatch` with `WM_PATHNAME`: `*` and `?` never match `/`, `[...]` takes `!`/`^`
    negation, ranges, `[:class:]` and backslash escapes, a `]` first is literal, and a
    backslash quotes any character. Raises `Unmatchable` for what wildmatch aborts on (an
    unclosed `[`, an unknown class): the pattern matches nothing."""
    found: list[Token] = []
    at = 0
    while at < len(pattern):
        char = pattern[at]
        if char == "\\":
            if at + 1 >= len(pattern):
                raise Unmatchable
            at += 1
            found.append(SLASH if pattern[at] == "/" else pattern[at])
        elif char == "[":
            token, at = _class(pattern, at)
            found.append(token)
            continue
        else:
            found.append(_SPECIAL.get(char, char))
        at += 1
    return found


def _one(token: Token, char: str) -> bool:
    if isinstance(token, str):
        return token == char
    if isinstance(token, CharClass):
        return token.matches(char)
    return token is ANY


def match_segment(glob: tuple[Token, ...], name: str, steps: Steps) -> bool:
    """Whether one path segment matches a segment's tokens (no `SLASH` or `GLOBSTAR` among
    them): the greedy two-pointer walk, at most len(name) x len(glob) steps."""
    at = 0
    token = 0
    star = -1  # the token after the last `*` seen, and where its match would end
    star_end = 0
    count = 0
    room = steps.limit - steps.spent  # checked as it goes: one segment may be costly alone
    while at < len(name):
        count += 1
        if count > room:
            steps.spend(count)
        if token < len(glob) and glob[token] is STAR:
            token += 1
            star, star_end = token, at
        elif token < len(glob) and _one(glob[token], name[at]):
            token += 1
            at += 1
        elif star >= 0:  # let the last `*` take one character more, and retry after it
            star_end += 1
            token, at = star, star_end
        else:
            steps.spend(count)
            return False
    steps.spend(count)
    return all(rest is STAR for rest in glob[token:])


Segment = tuple[Token, ...] | Wildcard
"""A segment's tokens, or `GLOBSTAR`: zero or more whole segments."""


def match_path(segments: tuple[Segment, ...], names: tuple[str, ...], steps: Steps) -> bool:
    """Whether a path's segments match a pattern's: the same two-pointer walk, one level up,
    with `GLOBSTAR` as the star and a segment match as the single character."""
    at = 0
    segment = 0
    star = -1
    star_end = 0
    while at < len(names):
        steps.spend(1)
        current = segments[segment] if segment < len(segments) else None
        if current is GLOBSTAR:
            segment += 1
            star, star_end = segment, at
        elif isinstance(current, tuple) and match_segment(current, names[at], steps):
            segment += 1
            at += 1
        elif star >= 0:
            star_end += 1
            segment, at = star, star_end
        else:
            return False
    return all(rest is GLOBSTAR for rest in segments[segment:])
