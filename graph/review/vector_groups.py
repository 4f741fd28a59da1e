"""Identical vectors kept as one group, and each group's pairs found exactly (design §6).

Drawers with one vector (`vector_hash`) are members of one `VectorGroup`, created the first time
the vector is stored with a `NEAR_VECTOR` edge to every group whose cosine reaches the
pending-pair floor, found by `VectorTable`: exact, never an approximate index. Group pairs are
facts about vectors and never go stale; readers take only a group's current members.
"""

import base64
import hashlib
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from castlegraph.graph.backends.store import GraphStore, Tx

FLOOR_MARGIN = 1e-4
"""Candidates from the float32 product are taken this far below the floor, then scored again
in float64 as the all-pairs comparison scores them: a float32 rounding never drops a pair."""


def packed(values: list[float]) -> str:
    """A group's vector as stored: its float32 bytes in base64. A list of 384 numbers costs
    FalkorDB's client about 6 ms to send and more to read back; one string costs nothing, and
    the first vector after a start reads every group's."""
    return base64.b64encode(np.asarray(values, dtype=np.float32).tobytes()).decode("ascii")


def unpacked(text: str) -> NDArray[np.float32]:
    return np.frombuffer(base64.b64decode(text), dtype=np.float32)


def vector_hash(values: list[float]) -> str:
    """The group of a vector: a hash of its float32 bytes (what both databases store)."""
    return hashlib.sha256(np.asarray(values, dtype=np.float32).tobytes()).hexdigest()[:32]


def exact_cosines(rows: NDArray[np.float32], vector: NDArray[np.float32]) -> NDArray[np.float64]:
    """Cosines as the all-pairs comparison computes them: float64 unit vectors."""
    unit_rows = rows.astype(np.float64)
    unit_rows /= np.linalg.norm(unit_rows, axis=1, keepdims=True)
    unit = vector.astype(np.float64) / float(np.linalg.norm(vector.astype(np.float64)))
    return np.minimum(unit_rows @ unit, 1.0)


@dataclass
class VectorTable:
    """Every group's vector (float32 rows) and unit norm, by group hash.

    It follows the protocol of the in-memory indexes (`graph.indexes.sequenced_index`),
    simplified: groups are created only under the lock vectors take
    (`graph.locks.PENDING_PAIRS`), numbered by a counter on the embeddings node that stays
    locked to commit, and never change. So a writer holding the lock reads the groups numbered
    after `seen` and then knows every group; a new epoch (a wiped graph) starts it over. It
    costs 4 bytes per dimension per distinct vector, read at the first vector after a start.
    """

    hashes: list[str] = field(default_factory=list)
    rows: NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    norms: NDArray[np.float32] = field(default_factory=lambda: np.zeros(0, np.float32))
    epoch: str | None = None
    seen: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def catch_up(self, tx: Tx) -> None:
        """Take in the groups numbered after `seen`; the caller holds the vectors' lock."""
        counter = tx.run("vector_groups_counter")
        epoch = counter[0]["epoch"] if counter else None
        value = int(counter[0]["value"]) if counter else 0
        with self.lock:
            if epoch != self.epoch or value < self.seen:
                self._start_over(epoch)
            if value == self.seen:
                return
            since = self.seen
        found = tx.run("vector_groups_since", since=since)
        with self.lock:
            if self.seen == since and self.epoch == epoch:
                self._add(found)

    def _start_over(self, epoch: str | None) -> None:
        self.hashes, self.epoch, self.seen = [], epoch, 0
        self.rows = np.zeros((0, 0), np.float32)
        self.norms = np.zeros(0, np.float32)

    def _add(self, found: list[Any]) -> None:
        if not found:
            return
        vectors = np.stack([unpacked(row["vector"]) for row in found])
        count = len(self.hashes)
        if self.rows.shape[0] == 0:
            self.rows = np.zeros((max(len(found), 64), vectors.shape[1]), np.float32)
            self.norms = np.zeros(self.rows.shape[0], np.float32)
        if count + len(found) > self.rows.shape[0]:  # room doubled, so adding stays linear
            grown = max(2 * self.rows.shape[0], count + len(found))
            self.rows = np.resize(self.rows, (grown, self.rows.shape[1]))
            self.norms = np.resize(self.norms, grown)
        self.rows[count : count + len(found)] = vectors
        self.norms[count : count + len(found)] = np.linalg.norm(vectors, axis=1)
        self.hashes.extend(row["hash"] for row in found)
        self.seen = max(self.seen, *(int(row["seq"]) for row in found))

    def near(self, values: list[float], floor: float) -> list[tuple[str, float]]:
        """Every group whose cosine with `values` reaches `floor`, scored exactly."""
        vector = np.asarray(values, dtype=np.float32)
        with self.lock:
            count = len(self.hashes)
            if count == 0 or self.rows.shape[1] != vector.shape[0]:
                return []
            rows, norms, hashes = self.rows[:count], self.norms[:count], self.hashes[:count]
        rough = (rows @ vector) / (norms * np.float32(np.linalg.norm(vector)))
        (candidates,) = np.nonzero(rough >= floor - FLOOR_MARGIN)
        if len(candidates) == 0:
            return []
        scores = exact_cosines(rows[candidates], vector)
        return [
            (hashes[int(i)], float(score))
            for i, score in zip(candidates, scores, strict=True)
            if score >= floor
        ]


_TABLES: "weakref.WeakKeyDictionary[GraphStore, VectorTable]" = weakref.WeakKeyDictionary()
_TABLES_LOCK = threading.Lock()


def table_of(store: GraphStore) -> VectorTable:
    """The store's table of vectors, one per store (so one per database a process talks to)."""
    with _TABLES_LOCK:
        table = _TABLES.get(store)
        if table is None:
            table = _TABLES[store] = VectorTable()
        return table
