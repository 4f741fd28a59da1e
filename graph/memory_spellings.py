"""The spelling keys of each row of the in-memory entity index (design §5.4): hits are weighed
before they are read.

Why: an index hit says only that an entity stores a probe key. At a million entities most hits
of a review probe are further than two edits (the depth-2 rows of a dense family such as
`RFC ····` meet keys four edits away; partition keys meet what differs in the segments they
cut out), and every one of them was read from the database by id and parsed, then weighed and
dropped by the rules. With each row's keys at hand, a hit that no rule can use
(`resolver.entity_pairs.may_pair`) is dropped before it is read.

Each row also keeps its entity's kind (one byte: a code into the kinds seen, 0 for unknown):
the rules only ever compare a mention with entities of its own kind, or with any entity when it
is `other` (design §5.2), so a hit of another kind than every mention that probed it is dropped
before it is read too. At a million entities that was most of what the weighing let through.

Layout: one UTF-8 blob of every row's keys (name key first, then alias keys) joined by a
control character, and the end offset of each row: about 24 bytes a row, against the ~45
eight-byte index entries of its hashes. A row whose keys contain the separator (a key of
punctuation only is the raw name) is kept as unknown, and its hits are always read; so is a
row's kind past the 255th distinct kind.
"""

from array import array
from collections.abc import Sequence

SEPARATOR = "\x1f"


class RowSpellings:
    """Keys by row, appended in the order `graph.memory_segments.KeyIndex` numbers its rows."""

    def __init__(self) -> None:
        self._blob = bytearray()
        self._ends = array("Q")
        self._kinds = array("B")
        self._kind_names: list[str | None] = [None]
        self._kind_codes: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._ends)

    def append(self, spellings: Sequence[str], kind: str | None = None) -> None:
        """The next row's keys and kind; an empty record (or None) stands for unknown."""
        if not any(SEPARATOR in spelling for spelling in spellings):
            self._blob += SEPARATOR.join(spellings).encode()
        self._ends.append(len(self._blob))
        self._kinds.append(self._code(kind))

    def extend(
        self, rows: Sequence[Sequence[str]], kinds: Sequence[str | None] | None = None
    ) -> None:
        """Rows in order, with their kinds (none given: unknown)."""
        for row, spellings in enumerate(rows):
            self.append(spellings, kinds[row] if kinds is not None else None)

    def _code(self, kind: str | None) -> int:
        if kind is None:
            return 0
        code = self._kind_codes.get(kind)
        if code is None:
            if len(self._kind_names) > 255:
                return 0
            code = self._kind_codes[kind] = len(self._kind_names)
            self._kind_names.append(kind)
        return code

    def kind_of(self, row: int) -> str | None:
        """The kind of `row`'s entity, or None if unknown (then it is never filtered by kind)."""
        return self._kind_names[self._kinds[row]]

    def of(self, row: int) -> tuple[str, ...] | None:
        """The keys of `row`, or None if unknown (then every hit on it is read)."""
        start = self._ends[row - 1] if row else 0
        end = self._ends[row]
        if start == end:
            return None
        return tuple(self._blob[start:end].decode().split(SEPARATOR))

    @property
    def nbytes(self) -> int:
        return len(self._blob) + (self._ends.itemsize + 1) * len(self._ends)
