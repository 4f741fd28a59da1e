"""The `entities` locks, one per kind (design §2.2, §5.5): writers of different kinds never wait.

A unit locks each kind its mentions meet: its own for a specific kind, every kind there is for
`other` (`resolver.entity_rules.kinds_compatible`), in sorted order and one statement, so two
units never each hold a lock the other waits for. The entity sequence stays one counter, whose
lock the write statement holds to commit. FalkorDB's store serialises every unit of its one
process, which holds every lock already.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from castlegraph.graph.backends.store import GraphStore, Tx
from castlegraph.resolver.entity_rules import OTHER_KIND
from castlegraph.resolver.errors import CastlegraphError

T = TypeVar("T")

PREFIX = "entities\x1f"
"""Before the kind in a lock's name (`Lock.name`), as a room's lock is `room␟wing␟room`."""


class _UnheldKinds(CastlegraphError):
    """An `other` unit met entities of kinds whose locks it does not hold: it starts again,
    taking them too (caught by `write_holding`, never seen outside).

    Kinds are open, so a unit can only lock the kinds some unit locked before: a kind first
    written after it listed them (or loaded without a lock, by a bulk load or an older version)
    has none it holds. Had the unit not met that kind's entities, it would simply come first in
    the order of commits (a specific-kind mention never meets what an `other` unit writes).
    """

    def __init__(self, kinds: Iterable[str]) -> None:
        self.kinds = frozenset(kinds)
        super().__init__(f"kinds met without their lock: {sorted(self.kinds)}")


@dataclass(frozen=True, slots=True)
class HeldKinds:
    """The kinds whose locks a unit holds, and whether it meant to hold every kind (it has an
    `other` mention, and listed them); None: every kind (FalkorDB's process lock)."""

    kinds: frozenset[str] | None
    every: bool = False

    def check(self, met: Iterable[str]) -> None:
        """Raise `_UnheldKinds` if a unit meant to hold every kind met one it does not hold
        (a unit of specific kinds may read others, and no rule uses them)."""
        if self.kinds is None or not self.every:
            return
        unheld = set(met) - self.kinds
        if unheld:
            raise _UnheldKinds(unheld)


def lock_kinds(tx: Tx, kinds: Iterable[str]) -> HeldKinds:
    """Take the lock of every kind in `kinds`, and of every kind there is when one is `other`,
    in sorted order; which kinds the unit holds."""
    wanted = set(kinds)
    every = OTHER_KIND in wanted
    if every:
        listed = tx.lock_scopes(PREFIX)
        if listed is None:
            return HeldKinds(None)
        wanted.update(scope.removeprefix(PREFIX) for scope in listed)
    ordered = sorted(wanted)
    tx.lock_all([PREFIX + kind for kind in ordered])
    return HeldKinds(frozenset(ordered), every)


def kinds_meeting(kind: str) -> set[str]:
    """The kinds whose entities a spelling given to an entity of `kind` may meet: its own and
    `other` (design §5.2), every kind when it is `other` itself (`lock_kinds` adds them)."""
    return {kind, OTHER_KIND}


def write_holding(
    store: GraphStore,
    kinds: Iterable[str],
    work: Callable[[Tx, HeldKinds], T],
    *,
    use_case: str,
) -> T:
    """Run `work` as one write unit that first locks `kinds` (`lock_kinds`); a unit that met
    kinds it did not hold is rolled back and run again holding them too. Kinds only grow, so
    this ends once the unit has listed every kind it meets."""
    wanted = set(kinds)
    while True:
        try:
            return store.write(lambda tx: work(tx, lock_kinds(tx, wanted)), use_case=use_case)
        except _UnheldKinds as met:
            wanted.update(met.kinds)
