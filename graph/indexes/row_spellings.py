"""The spelling keys, kind and record of each row of the in-memory entity index (design §5.4):
hits are weighed before they are read.

An index hit says only that an entity stores a probe key; with each row's keys and kind at hand,
a hit that no rule can use (`resolver.entity_pairs.may_pair`, or another kind than every mention
that probed it, design §5.2) is dropped before it is read, and a hit that is kept is decided on
from the row's record without reading it from the database (`entity`).
"""

import functools
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np
from numpy.typing import NDArray

from castlegraph.graph.records import Entity
from castlegraph.resolver import core as chosen_core
from castlegraph.resolver.entity_model import EntityView

SEPARATOR = "\x1f"
RECORD = "\x1e"
"""Between a row's keys, its name and aliases, and whom it was settled as (if anyone)."""
_RECORD_BYTE = ord(RECORD)
CREATED_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ODD = -(2**63)
"""A creation time kept aside, as its text (`RowSpellings._odd_created`)."""
NARROW_ENDS_MAX = 2**32 - 1
"""Row ends are uint32 while the blob is no longer than this, uint64 past it."""


@dataclass(frozen=True, slots=True)
class Record:
    """What a row keeps of its entity besides its keys and kind."""

    name: str
    aliases: tuple[str, ...]
    created_at: str | None
    """None where the entity has none (the database answers null)."""
    same_as: str | None = None


class RowSpellings:
    """Keys by row, appended in the order `graph.indexes.key_segments.KeyIndex` numbers its rows.

    Layout: one UTF-8 blob of every row's keys (name key first, then alias keys) joined by a control
    character, and the end offset of each row. A row whose keys contain the separator (a key of
    punctuation only is the raw name) is kept as unknown, and its hits are always read.

    Each row keeps its entity's kind as a 32-bit code into the kinds seen, 0 for unknown; the
    index's long runs of one key are kept by these codes too (`graph.indexes.kind_runs`), so every
    kind needs a code of its own, however many there are (a kind without one is unknown, read by
    every lookup).

    The rest of the entity (its name, its aliases, when it was created, whom it was settled as)
    follows the keys in the same blob, the creation time as one int64 of microseconds (the
    fixed-width form `graph.clock` writes, checked to print back byte for byte; any other is kept as
    it is, aside). A row whose record holds a separator, or has no kind, keeps its keys only: its
    entity is read by id.
    """

    def __init__(self) -> None:
        self._blob = bytearray()
        self._ends = array("I")
        """Where each row's text ends in the blob: 4 bytes a row until the blob outgrows them
        (`NARROW_ENDS_MAX`), then 8."""
        self._kinds = array("I")
        self._kind_names: list[str | None] = [None]
        self._kind_codes: dict[str, int] = {}
        self._created = array("q")
        self._odd_created: dict[int, str | None] = {}

    @property
    def rows(self) -> int:
        return len(self._ends)

    def __len__(self) -> int:
        return len(self._ends)

    def append(
        self, spellings: Sequence[str], kind: str | None = None, record: Record | None = None
    ) -> None:
        """The next row's keys, kind and record; an empty one (or None) stands for unknown."""
        code = self._code(kind)
        if not any(_separated(spelling) for spelling in spellings):
            text = SEPARATOR.join(spellings)
            if text and code and record is not None and _recordable(record):
                text += RECORD + SEPARATOR.join((record.name, *record.aliases))
                if record.same_as is not None:
                    text += RECORD + record.same_as
            self._blob += text.encode()
        if len(self._blob) > NARROW_ENDS_MAX and self._ends.typecode == "I":
            self._ends = array("Q", self._ends)
        self._ends.append(len(self._blob))
        self._kinds.append(code)
        self._created.append(self._created_code(record.created_at if record else ""))

    def extend(
        self,
        rows: Sequence[Sequence[str]],
        kinds: Sequence[str | None] | None = None,
        records: Sequence[Record | None] | None = None,
    ) -> None:
        """Rows in order, with their kinds and records (none given: unknown)."""
        for row, spellings in enumerate(rows):
            kind = kinds[row] if kinds is not None else None
            self.append(spellings, kind, records[row] if records is not None else None)

    def _created_code(self, created_at: str | None) -> int:
        """Microseconds since 1970 if they print back as `created_at`; else kept aside."""
        try:
            moment = datetime.fromisoformat(created_at) if created_at is not None else None
        except (TypeError, ValueError):
            moment = None
        if moment is not None and moment.tzinfo is not None:
            code = (moment - _EPOCH) // timedelta(microseconds=1)
            if code != _ODD and _created_text(code) == created_at:
                return code
        self._odd_created[len(self._created)] = created_at
        return _ODD

    def _code(self, kind: str | None) -> int:
        if kind is None:
            return 0
        code = self._kind_codes.get(kind)
        if code is None:
            code = self._kind_codes[kind] = len(self._kind_names)
            self._kind_names.append(kind)
        return code

    def code_of(self, kind: str) -> int | None:
        """The code of `kind`, or None if no row has it."""
        return self._kind_codes.get(kind)

    def kind_of(self, row: int) -> str | None:
        """The kind of `row`'s entity, or None if unknown (then it is never filtered by kind)."""
        return self._kind_names[self._kinds[row]]

    def kind_codes(self, rows: NDArray[np.int64]) -> NDArray[np.uint32]:
        """The kind code of each of `rows` (0: unknown), a copy: the array behind it must stay
        free to grow."""
        return np.frombuffer(self._kinds, dtype=np.uint32)[rows]

    def of(self, row: int) -> tuple[str, ...] | None:
        """The keys of `row`, or None if unknown (then every hit on it is read)."""
        start = self._ends[row - 1] if row else 0
        end = self._ends[row]
        if start == end:
            return None
        cut = self._blob.find(_RECORD_BYTE, start, end)  # UTF-8: no other byte is 0x1e
        return tuple(self._blob[start : end if cut < 0 else cut].decode().split(SEPARATOR))

    def of_rows(self, rows: NDArray[np.int64]) -> list[tuple[str, ...] | None]:
        """`of` each of `rows`: read by the compiled core where it runs (a lookup weighs tens of
        thousands of rows a batch at a million entities, and a Python call each cost more than
        weighing them), else by `of`, its twin."""
        native = chosen_core.segments
        if native is not None:
            found: list[tuple[str, ...] | None] | None = native.row_keys(
                self._blob, self._ends, rows
            )
            if found is not None:
                return found
        return [self.of(row) for row in rows.tolist()]

    def entity(self, row: int, entity_id: str) -> Entity | None:
        """The entity of `row` as the database would return it, or None if the row does not
        keep it (then it is read by id)."""
        start = self._ends[row - 1] if row else 0
        parts = self._blob[start : self._ends[row]].decode().split(RECORD)
        if len(parts) < 2:
            return None
        keys, spellings = parts[0].split(SEPARATOR), parts[1].split(SEPARATOR)
        kind = self._kind_names[self._kinds[row]]
        assert kind is not None  # a record is only kept with a kind
        view = EntityView(
            entity_id, spellings[0], kind, keys[0], tuple(spellings[1:]), tuple(keys[1:])
        )
        created_at = self.created_at(row)
        return Entity(view, created_at, parts[2] if len(parts) > 2 else None)  # type: ignore[arg-type]

    def keeps_unsettled(self, row: int) -> bool:
        """Whether `row` keeps its entity whole (`entity` builds it) and names no one it was
        settled as the same as: an entity a lookup may set aside, to build later if needed."""
        start = self._ends[row - 1] if row else 0
        return self._blob.count(_RECORD_BYTE, start, self._ends[row]) == 1

    def created_at(self, row: int) -> str | None:
        code = self._created[row]
        return self._odd_created[row] if code == _ODD else _created_text(code)

    @property
    def nbytes(self) -> int:
        per_row = self._ends.itemsize + self._created.itemsize + self._kinds.itemsize
        return len(self._blob) + per_row * len(self._ends)


def _separated(text: str) -> bool:
    return SEPARATOR in text or RECORD in text


def _recordable(record: Record) -> bool:
    texts = (record.name, *record.aliases)
    if record.same_as is not None:
        texts += (record.same_as,)
    return not any(map(_separated, texts))


def _created_text(code: int) -> str:
    """`CREATED_FORMAT` of `code` microseconds since 1970: the day's text is remembered and
    the time of day written from integers (`strftime` took 17 µs, a tenth of building a batch's
    entities)."""
    day, micros = divmod(code, _DAY)
    seconds, micros = divmod(micros, 1_000_000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{_day_text(day)}T{hours:02d}:{minutes:02d}:{seconds:02d}.{micros:06d}Z"


_DAY = 86_400_000_000


@functools.lru_cache(maxsize=4_096)
def _day_text(day: int) -> str:
    return (_EPOCH + timedelta(days=day)).strftime("%Y-%m-%d")
