"""The spelling keys of each row of the in-memory entity index (design §5.4): hits are weighed
before they are read.

Why: an index hit says only that an entity stores a probe key. At a million entities most hits
of a review probe are further than two edits (the depth-2 rows of a dense family such as
`RFC ····` meet keys four edits away; partition keys meet what differs in the segments they
cut out), and every one of them was read from the database by id and parsed, then weighed and
dropped by the rules. With each row's keys at hand, a hit that no rule can use
(`resolver.entity_pairs.may_pair`) is dropped before it is read.

Layout: one UTF-8 blob of every row's keys (name key first, then alias keys) joined by a
control character, and the end offset of each row: about 24 bytes a row, against the ~45
eight-byte index entries of its hashes. A row whose keys contain the separator (a key of
punctuation only is the raw name) is kept as unknown, and its hits are always read.
"""

from array import array
from collections.abc import Sequence

SEPARATOR = "\x1f"


class RowSpellings:
    """Keys by row, appended in the order `graph.memory_segments.KeyIndex` numbers its rows."""

    def __init__(self) -> None:
        self._blob = bytearray()
        self._ends = array("Q")

    def __len__(self) -> int:
        return len(self._ends)

    def append(self, spellings: Sequence[str]) -> None:
        """The next row's keys; an empty record stands for unknown."""
        if not any(SEPARATOR in spelling for spelling in spellings):
            self._blob += SEPARATOR.join(spellings).encode()
        self._ends.append(len(self._blob))

    def extend(self, rows: Sequence[Sequence[str]]) -> None:
        for spellings in rows:
            self.append(spellings)

    def of(self, row: int) -> tuple[str, ...] | None:
        """The keys of `row`, or None if unknown (then every hit on it is read)."""
        start = self._ends[row - 1] if row else 0
        end = self._ends[row]
        if start == end:
            return None
        return tuple(self._blob[start:end].decode().split(SEPARATOR))

    @property
    def nbytes(self) -> int:
        return len(self._blob) + self._ends.itemsize * len(self._ends)
