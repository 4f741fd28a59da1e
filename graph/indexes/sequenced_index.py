"""What an in-memory candidate index shares: being kept exact by a sequence (design §2.2).

The entity index and the drawer index follow the same protocol (see `SequencedIndex`):
every statement that changes what they index advances a counter, locked to commit, and stamps
what it changed with the new value, so a write unit can catch its index up before it decides.
"""

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from castlegraph.graph.backends.store import Row, Tx
from castlegraph.graph.errors import GraphUnavailable

WAIT_SECONDS = 10.0
"""How long a search waits for a build by default (`dedup.memory_index_wait_seconds`)."""

IndexState = Literal["building", "ready", "failed"]


@dataclass(frozen=True, slots=True)
class Counter:
    """Where a counter stands: its epoch, its value and the deletes it counted (none where
    nothing is deleted). No counter yet reads as no epoch, 0 and 0."""

    epoch: str | None
    value: int
    deletes: int = 0

    @classmethod
    def of(cls, row: Row) -> "Counter":
        """From a row (or map) with `epoch`, `value` and, where deletes are counted, `deletes`."""
        return cls(row["epoch"], int(row["value"] or 0), int(row.get("deletes") or 0))


class SequencedIndex:
    """An index built once, then caught up by the counter `counter_statement` reads.

    The counter is a property of `(:Meta {name: 'entity_seq'})`, or of `(:Meta {name:
    'drawer_seq'})-[:SEQUENCE]->()` for drawers. A write unit reads it under its lock and, before it
    decides, takes in what was stamped after the value the index has seen (`catch_up`). Once its
    statement has committed, it adds its own changes (`_take_written`) when nothing came in between.
    The counter's epoch, drawn when the counter is created, tells a wiped graph: the index then
    starts over.

    A delete leaves nothing to stamp. Where deletes happen (drawers), the counter also counts them
    (`deletes`): an index that keeps anything about the deleted items beside the rows it stamps (the
    drawer index's known drawers) drops it when the count shows a delete it did not make
    (`_deleted_elsewhere`); its own deletes it takes in as it makes them (`_took_deletes`).

    Subclasses say what starting over (`_start_over`) and taking in stamped changes (`_take_since`)
    mean for their data; this class keeps the counter, the epoch and the lock.

    While an index builds, searches go to the database's own index where it keeps one (Neo4j, or
    `dedup.memory_index = false`). The embedded FalkorDB keeps none while these serve (its data
    directory has one owner, design §5.4): a search then waits for the build (`await_ready`), up to
    `wait_seconds`, and is refused as retryable (`GraphUnavailable`) past it. A build that failed
    leaves the searches on the database, whose index the service re-creates first (`failed`).
    """

    counter_statement: str
    """The statement returning the counter's `value` (0 when there is no node yet) and `epoch`."""

    name: str
    """What it indexes ("entity", "drawer"), for messages."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen = 0
        self._epoch: str | None = None
        self._deletes = 0
        self._ready = threading.Event()
        self._settled = threading.Event()
        """Set once the build ended: ready, or failed."""
        self.database_answers = True
        """Whether the database keeps an index of its own that answers while this one builds
        (Neo4j; FalkorDB with the in-memory indexes off builds none). False: searches wait."""
        self.wait_seconds = WAIT_SECONDS

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    @property
    def state(self) -> IndexState:
        if self._ready.is_set():
            return "ready"
        return "failed" if self._settled.is_set() else "building"

    def wait_ready(self, timeout: float) -> bool:
        return self._ready.wait(timeout)

    def settled(self, timeout: float) -> bool:
        """Whether the build ended (ready or failed), waiting up to `timeout` for it."""
        return self._settled.wait(timeout)

    def failed(self) -> None:
        """The build failed: searches go to the database's index from now on (the caller
        made sure there is one)."""
        self._settled.set()

    def await_ready(self) -> bool:
        """Whether searches may use this index now (else the database's answers). Where the
        database keeps no index of its own, wait for the build, up to `wait_seconds`: past it
        `GraphUnavailable` (retryable), as the database would answer while it starts.

        Called before a unit's transaction, never inside one: a waiting write holds no lock.
        """
        if self._ready.is_set() or self.database_answers:
            return self._ready.is_set()
        self._settled.wait(self.wait_seconds)
        if self._ready.is_set():
            return True
        if self._settled.is_set():
            return False
        raise GraphUnavailable(
            f"the in-memory {self.name} index is still being built; retry later",
            {"index": f"{self.name}_index", "state": "building"},
        )

    @property
    def seen(self) -> int:
        return self._seen

    def position(self) -> Counter:
        """Where the counter stood when this index last took something in: what it holds is
        exact for as long as the counter still stands there. Read before a lookup, so that a
        change taken in meanwhile shows as a counter that moved."""
        with self._lock:
            return Counter(self._epoch, self._seen, self._deletes)

    def counter(self, tx: Tx) -> Counter:
        """Where the counter stands, once no writer is committing it (`Tx.run_settled`, a
        plain read where commits show whole): all that was stamped up to it is there to read.
        A build starts from it."""
        [row] = tx.run_settled(self.counter_statement)
        return Counter.of(row)

    def _to_take_in(self, tx: Tx, read: Counter) -> Counter:
        """`read`, the counter as the unit read it, where it stands where the index does or
        where there is none (a wiped graph: nothing stamped to miss); else the counter read
        again once no writer is committing it (`counter`). A reader can meet a Neo4j commit
        half applied, its new value without all it stamped, and a catch-up to that value would
        miss the rest for good. When nothing came in, the common case, there is no second read.

        A missing counter is never read again: a unit whose write statement looked for it has
        Neo4j's lock on that absent key, and a transaction beside it would wait for the unit."""
        if read == self.position() or read.epoch is None or tx.shows_commits_whole:
            return read
        return self.counter(tx)

    def _built(self, counter: Counter) -> None:
        """A build finished, from the counter it read before its first page (lock held)."""
        self._epoch, self._seen, self._deletes = counter.epoch, counter.value, counter.deletes
        self._ready.set()
        self._settled.set()

    def catch_up(self, tx: Tx) -> bool:
        """Take in what was stamped since the last value seen; False until the index is built.
        Called inside the write unit after its lock, so no writer it excludes can commit
        between this read and the unit's decisions."""
        if not self._ready.is_set():
            return False
        [row] = tx.run(self.counter_statement)
        self._take_in(tx, self._to_take_in(tx, Counter.of(row)))
        return True

    def catch_up_to(self, tx: Tx, counter: Counter, looked_at: Counter) -> bool:
        """`catch_up` to the counter as another statement of `tx` read it (under the unit's
        lock, like the counter statement); whether what was looked up in the index when it
        stood at `looked_at` (its `position`, read before the lookup) must be looked up again:
        the counter stands elsewhere, so the index took something in, here or since that
        lookup (another unit's own drawer, `_take_written`). A write folds the counter into
        its first read this way: one round trip less when nothing came in between, which is
        what a single service sees (design §4.5); where it did, the counter is read again
        once settled (`_to_take_in`)."""
        settled = self._to_take_in(tx, counter)
        self._take_in(tx, settled)
        return settled != looked_at

    def _take_in(self, tx: Tx, counter: Counter) -> None:
        """Whatever the counter shows that the index has not seen: a wiped graph, stamped
        changes, deletes made elsewhere."""
        with self._lock:
            if not self._same_graph(counter.epoch):  # another instance's first write is not
                self._start_over()  # a wiped graph: the index keeps what it was built with
                self._epoch, self._seen, self._deletes = counter.epoch, 0, 0
            if counter.value > self._seen:
                self._take_since(tx, self._seen, counter.value)
                self._seen = counter.value
            if counter.deletes != self._deletes:
                self._deleted_elsewhere()
                self._deletes = counter.deletes

    def _took_deletes(self, counter: Counter, take: Callable[[], None]) -> None:
        """After a unit's delete committed, the counter as it left it: `take` it in (always:
        the unit knows what it deleted), and count it as seen if no other delete came in
        between (else the next catch-up finds the count moved)."""
        with self._lock:
            take()
            if self._same_graph(counter.epoch) and counter.deletes == self._deletes + 1:
                self._deletes = counter.deletes

    def _take_written(self, epoch: str | None, seq: int, take: Callable[[], None]) -> None:
        """After a unit's statement committed with the value `seq`: `take` its own changes, if
        nothing else was stamped in between (else the next catch-up reads them)."""
        with self._lock:
            if not self._ready.is_set() or seq != self._seen + 1 or not self._same_graph(epoch):
                return
            take()
            self._seen = seq

    def _same_graph(self, epoch: str | None) -> bool:
        """Whether a unit's statement ran on the graph this index has seen: the same epoch, or
        the counter that statement created where none was seen yet, whose epoch the index
        takes (lock held). Otherwise the next catch-up starts over."""
        if epoch == self._epoch:
            return True
        if self._seen != 0 or self._epoch is not None:
            return False
        self._epoch = epoch
        return True

    def _deleted_elsewhere(self) -> None:
        """Another unit deleted something this index did not take in (lock held): drop what
        is kept beside the stamped rows. Nothing, unless a subclass keeps such things."""

    def _start_over(self) -> None:
        """Drop everything: the graph was wiped (lock held)."""
        raise NotImplementedError

    def _take_since(self, tx: Tx, after: int, upto: int) -> None:
        """Take in what was stamped with a value in (`after`, `upto`] (lock held)."""
        raise NotImplementedError
