"""A least-recently-used cache bounded by the bytes it holds, not by its number of entries.

`functools.lru_cache(maxsize=n)` bounds entries, but an entry grows with its input (a long
key's deletion neighbourhood is hundreds of strings), so the service's caches bound bytes
(design §7). `byte_lru` memoises a function; `BytesBoundedMap` keeps values put by hand
(`graph.indexes.known_drawers`). Thread-safe: request threads share them.
"""

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


_EMPTY_TEXT_BYTES = sys.getsizeof("")
"""What an ASCII string weighs besides its characters (one byte each)."""


def size_of(value: object) -> int:
    """Bytes of a value and, for the collections the caches hold, of their members.

    A collection of ASCII strings, what the key caches hold, is weighed from its members'
    joined length: as exact as `sys.getsizeof` of each, and 3 µs instead of 25 for the ~270
    review probes of a key (deriving them takes ~70).
    """
    size = sys.getsizeof(value)
    if isinstance(value, frozenset | set | tuple | list):
        try:
            joined = "".join(value)
        except TypeError:  # not all strings
            joined = None
        if joined is not None and joined.isascii():
            return size + _EMPTY_TEXT_BYTES * len(value) + len(joined)
        size += sum(map(sys.getsizeof, value))  # in C: a miss sized hundreds of keys
    return size


@dataclass(frozen=True, slots=True)
class CacheInfo:
    hits: int
    misses: int
    entries: int
    bytes: int
    max_bytes: int


class BytesBoundedMap(Generic[K, V]):
    """A map that forgets its least recently used entries once they weigh `max_bytes` (each
    entry weighs what its `put` says); a single entry heavier than the whole budget is not
    kept. Values are never None: `get` answers None for a key not kept. Thread-safe: request
    threads share the maps."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._hits = self._misses = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept for `key`, now the most recently used, or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self._misses += 1
                return None
            self._entries.move_to_end(key)
            self._hits += 1
            return found[0]

    def get_many(self, keys: Sequence[K]) -> list[V | None]:
        """`get` of each key, in order, under one hold of the lock: a batch asks for hundreds
        at once, and a lock, a call and a count per key cost it more than the lookups."""
        entries = self._entries
        with self._lock:
            found = [entries.get(key) for key in keys]
            move = entries.move_to_end
            for key, entry in zip(keys, found, strict=True):
                if entry is not None:
                    move(key)
            hits = len(found) - found.count(None)
            self._hits += hits
            self._misses += len(found) - hits
        return [None if entry is None else entry[0] for entry in found]

    def put(self, key: K, value: V, cost: int) -> None:
        """Keep `value` for `key` (a key kept already keeps its value)."""
        if cost > self.max_bytes:
            return
        with self._lock:
            if key in self._entries:
                return
            self._entries[key] = (value, cost)
            self._bytes += cost
            while self._bytes > self.max_bytes:
                _, (_, evicted) = self._entries.popitem(last=False)
                self._bytes -= evicted

    def put_if_room(self, key: K, value: V, cost: int) -> bool:
        """Keep `value` for `key` only if it fits beside what is kept, evicting nothing;
        whether it is kept now (a key kept already is)."""
        with self._lock:
            if key in self._entries:
                return True
            if self._bytes + cost > self.max_bytes:
                return False
            self._entries[key] = (value, cost)
            self._bytes += cost
            return True

    def pop(self, key: K) -> None:
        """Forget `key`, if kept."""
        with self._lock:
            found = self._entries.pop(key, None)
            if found is not None:
                self._bytes -= found[1]

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(
                self._hits, self._misses, len(self._entries), self._bytes, self.max_bytes
            )

    def cache_clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = self._hits = self._misses = 0


class ByteLRU(Generic[K, V]):
    """`function` memoised, least recently used first out once `max_bytes` is reached.

    Each entry weighs its key and value as `size_of` counts them; a single value larger than
    the whole budget is returned without being kept."""

    def __init__(self, function: Callable[[K], V], max_bytes: int) -> None:
        self.__wrapped__ = function
        self.__doc__ = function.__doc__
        self._kept: BytesBoundedMap[K, V] = BytesBoundedMap(max_bytes)

    def __call__(self, key: K) -> V:
        found = self._kept.get(key)
        if found is not None:
            return found
        value = self.__wrapped__(key)  # outside the lock: two threads may compute one key
        self._kept.put(key, value, size_of(key) + size_of(value))
        return value

    def cache_info(self) -> CacheInfo:
        return self._kept.cache_info()

    def cache_clear(self) -> None:
        self._kept.cache_clear()


def byte_lru(max_bytes: int) -> Callable[[Callable[[K], V]], ByteLRU[K, V]]:
    """Decorator form: `@byte_lru(32 * MIB)` on a function of one hashable argument."""

    def decorate(function: Callable[[K], V]) -> ByteLRU[K, V]:
        return ByteLRU(function, max_bytes)

    return decorate


MIB = 1024 * 1024
