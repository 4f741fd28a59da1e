"""What the service remembers of drawers it compared or wrote lately: their normal forms and
the place, agent and kind that tell who may compare with them (design §4.5).

A write compares with hundreds of drawers the in-memory index chose, most of them read by an
earlier batch of the same job, so their facts are kept by id instead of being read again.
"""

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from castlegraph.graph.records import Drawer
from castlegraph.resolver.bounded_cache import MIB, BytesBoundedMap, CacheInfo
from castlegraph.resolver.drawers import DrawerText

KNOWN_DRAWERS_BYTES = 128 * MIB
"""~130,000 drawers of ~320 characters: a room of 100 k written through the service stays
known whole, so a single write into it finds every drawer its index chose known and reads
nothing (`graph.drawers.palace._store_unread`: 300 of 300 timed writes of `bench drawers` at 100 k).
With 64 MiB (~70,000) a third of that room was unknown, and a write chooses ~20 drawers.
A checkpoint of 10 k items into a copy of a saved room of 100 k, on a service just started
(none known), found 73 % of the drawers it compared with known at 64 MiB and at 128 MiB (it
compared with ~74,000 distinct drawers), 61 % with 32 MiB."""

ENTRY_BYTES = 600
"""What an entry holds besides its normal form: the id, the two hashes, the objects and the
map's entry (~600 bytes, measured with `tracemalloc`)."""


@dataclass(frozen=True, slots=True)
class KnownDrawer:
    """A drawer's facts a write compares with: its normal form and who may compare with it
    (`NewDrawer.compares_with`)."""

    text: DrawerText
    norm_len: int
    wing: str
    room: str
    agent: str | None
    kind: str | None

    @classmethod
    def of(cls, drawer: Drawer, text: DrawerText) -> "KnownDrawer":
        """A drawer just written, with the normal form its write computed."""
        return cls(
            text, drawer.norm_len, *_place(drawer.wing, drawer.room, drawer.agent, drawer.kind)
        )

    @classmethod
    def read(cls, values: Sequence[Any]) -> tuple[str, "KnownDrawer"]:
        """A drawer as the by-ids statements give one they were asked to read whole:
        `[id, content, norm_len, wing, room, agent, kind]`."""
        drawer_id, content, norm_len, wing, room, agent, kind = values
        return drawer_id, cls(
            DrawerText.of(content), int(norm_len or 0), *_place(wing, room, agent, kind)
        )

    @property
    def bytes(self) -> int:
        """What the entry holds: its normal form and `ENTRY_BYTES`."""
        return sys.getsizeof(self.text.normalized) + ENTRY_BYTES


def _place(
    wing: str, room: str, agent: str | None, kind: str | None
) -> tuple[str, str, str | None, str | None]:
    """A drawer's place, agent and kind as shared strings: a room's drawers have the same, so
    its entries keep one copy of each, not three or four small strings per entry."""
    return sys.intern(wing), sys.intern(room), _interned(agent), _interned(kind)


def _interned(value: str | None) -> str | None:
    return None if value is None else sys.intern(value)


class KnownDrawers:
    """Known drawers by id, shared by the writes of one service instance.

    None of these facts changes once a drawer exists (no statement sets them: a new version is a new
    drawer), so keeping them by id is exact. Whether a known drawer is still current the in-memory
    index tells: closes reach it through the drawer sequence, deletes through the sequence's count
    of them (`graph.indexes.drawer_index`), so the database is not asked. Bounded by bytes, least
    recently used first out (`resolver.bounded_cache`); an entry weighs ~1 KB for a 300-character
    drawer.
    """

    def __init__(self, max_bytes: int = KNOWN_DRAWERS_BYTES) -> None:
        self._kept: BytesBoundedMap[str, KnownDrawer] = BytesBoundedMap(max_bytes)

    def get(self, drawer_id: str) -> KnownDrawer | None:
        return self._kept.get(drawer_id)

    def split(self, ids: Sequence[str]) -> tuple[list[str], dict[str, KnownDrawer]]:
        """The ids of drawers not known (to read whole), and the known drawers among `ids`."""
        unknown: list[str] = []
        known: dict[str, KnownDrawer] = {}
        for drawer_id, found in zip(ids, self._kept.get_many(ids), strict=True):
            if found is None:
                unknown.append(drawer_id)
            else:
                known[drawer_id] = found
        return unknown, known

    def put(self, drawer_id: str, known: KnownDrawer) -> None:
        self._kept.put(drawer_id, known, known.bytes)

    def put_if_room(self, drawer_id: str, known: KnownDrawer) -> bool:
        """Keep the drawer only if it fits without another going (warming); whether it did."""
        return self._kept.put_if_room(drawer_id, known, known.bytes)

    def cache_info(self) -> CacheInfo:
        return self._kept.cache_info()

    def drop(self, ids: Sequence[str]) -> None:
        """Forget these drawers (deleted)."""
        for drawer_id in ids:
            self._kept.pop(drawer_id)

    def clear(self) -> None:
        """Forget every drawer (the graph was wiped, ids may come back with other content; or
        another unit deleted some)."""
        self._kept.cache_clear()
