"""The single edit between two keys one OSA step apart, and the guards that inspect it.

The typo rule (design §5.3) must know *what* the one edit changed: a digit, or a word whose two
spellings are both known words. rapidfuzz gives only the distance; this module recovers the
edit itself in linear time, without a distance matrix.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

EditOp = Literal["insert", "delete", "substitute", "transpose"]


@dataclass(frozen=True, slots=True)
class Edit:
    """One OSA step from ``source`` to ``target``.

    ``position`` indexes ``source`` (for ``insert``: where the new character goes).
    ``removed`` holds the characters of ``source`` the step touches and ``added`` those of
    ``target``: a transposition of ``xy`` has ``removed="xy"``, ``added="yx"``.
    """

    op: EditOp
    position: int
    removed: str
    added: str

    @property
    def chars(self) -> str:
        """Every character the edit inserts, deletes, substitutes or transposes."""
        return self.removed + self.added

    def touches_digit(self) -> bool:
        """True when a numeric character is involved: digits are identity, not typos."""
        return any(ch.isnumeric() for ch in self.chars)

    def touches_space(self) -> bool:
        """True when the edit adds, removes or moves a word boundary."""
        return " " in self.chars


def _first_difference(a: str, b: str) -> int:
    """The first index where ``a`` and ``b`` differ (the shorter length if one is a prefix)."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return min(len(a), len(b))


def _same_length_edit(source: str, target: str, i: int) -> Edit | None:
    """A substitution or adjacent transposition at ``i``, the first difference."""
    if source[i + 1 :] == target[i + 1 :]:
        return Edit("substitute", i, source[i], target[i])
    if source[i : i + 2] == target[i : i + 2][::-1] and source[i + 2 :] == target[i + 2 :]:
        return Edit("transpose", i, source[i : i + 2], target[i : i + 2])
    return None


def single_edit(source: str, target: str) -> Edit | None:
    """The one OSA edit turning ``source`` into ``target``, or None when the distance is not 1.

    Where an insertion or deletion sits inside a run of one repeated character (``ab`` /
    ``aab``) the position is ambiguous; the first difference is reported. The guards look only
    at the characters involved and the word around them, which the choice cannot change (keys
    never hold two spaces in a row, so a run of one character lies inside one word).
    """
    i = _first_difference(source, target)
    if len(source) == len(target):
        return _same_length_edit(source, target, i) if i < len(source) else None
    if len(source) == len(target) + 1 and source[i + 1 :] == target[i:]:
        return Edit("delete", i, source[i], "")
    if len(target) == len(source) + 1 and target[i + 1 :] == source[i:]:
        return Edit("insert", i, "", target[i])
    return None


def _word_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen ``text[start:end]`` to the whole space-delimited word(s) around it."""
    left = text.rfind(" ", 0, start) + 1
    right = text.find(" ", end)
    return left, len(text) if right == -1 else right


def edited_words(source: str, target: str, edit: Edit) -> tuple[str, str] | None:
    """The word the edit lies in, spelt as in ``source`` and in ``target``.

    None when the edit adds, removes or moves a space: it then lies in no single word, and such
    edits are never blocked by the word guard (``jeanluc`` / ``jean luc``).
    """
    if edit.touches_space():
        return None
    width = len(edit.removed)  # characters of source inside the edit (0 for an insertion)
    left, right = _word_span(source, edit.position, edit.position + width)
    # Both strings are equal outside the edit, so the word in target has the same left edge and
    # an end shifted by the length change.
    shift = len(target) - len(source)
    return source[left:right], target[left : right + shift]


def blocked_by_words(
    source: str, target: str, edit: Edit, is_known_word: Callable[[str], bool]
) -> bool:
    """True when the edit lies inside one word and both spellings of it are known words."""
    words = edited_words(source, target, edit)
    if words is None:
        return False
    before, after = words
    return bool(before) and bool(after) and is_known_word(before) and is_known_word(after)


def unknown_target(
    source: str, target: str, edit: Edit, is_known_word: Callable[[str], bool]
) -> bool:
    """True when the edit lies inside one word and ``target``'s spelling of it is not known.

    A typo is a rare spelling of a known one: the spelling a mention would converge onto should
    be the known one. When it is not, the two may as well be two rare names (``kołak`` /
    ``kołpak``). Edits that add or remove a space are never caught here, as above.
    """
    words = edited_words(source, target, edit)
    return words is not None and not is_known_word(words[1])
