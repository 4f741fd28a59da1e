"""Two writers of one room at once (design §4.5, §6): every drawer write holds its room's lock
before it reads what it decides on (a write decided unread takes it in its one statement, ahead
of that statement's reads: `Tx.run_locked`), so a second writer whose in-memory index has not
seen the first's drawer waits for the first to commit, then finds the drawer sequence moved,
reads its candidates and sees the drawer: an exact copy is not stored again, a near copy is
linked. On FalkorDB the store serialises the units; on Neo4j the lock does (without it, both
drawers are stored unlinked)."""

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.drawers.palace import supersede_drawer, write_drawer
from castlegraph.graph.errors import DrawerNameTaken, DrawerSuperseded
from castlegraph.graph.indexes.drawer_index import DrawerIndex
from tests.support.holding import holding_first

POLICY = DedupPolicy()
TEXT = "rotate the staging certificates before the audit on friday and tell the ops channel"


def _built(store: Any) -> DrawerIndex:
    memory = DrawerIndex()
    memory.build(store)
    return memory


def _room_contents(store: Any) -> list[str]:
    rows = store.run_text(
        "MATCH (d:Drawer) WHERE d.wing = 'w' AND d.room = 'r' RETURN d.content AS content", {}
    )
    return sorted(row["content"] for row in rows)


@pytest.mark.parametrize(
    ("second_text", "stored"),
    [(TEXT, 1), (TEXT.replace("audit", "audti"), 2)],
    ids=["exact copy", "near copy"],
)
def test_a_write_while_another_in_its_room_is_uncommitted_waits_and_sees_it(
    store: Any, second_text: str, stored: int
) -> None:
    # a drawer already there starts the drawer sequence, which a write decided from memory checks
    write_drawer(store, NewDrawer("w", "r", "the quarterly budget review moved to tuesday"), POLICY)
    first_index, second_index = _built(store), _built(store)  # neither will see the other
    with (
        holding_first("create_drawer_unless_moved") as hold,
        ThreadPoolExecutor(max_workers=2) as pool,
    ):
        first = pool.submit(
            write_drawer, store, NewDrawer("w", "r", TEXT), POLICY, memory=first_index
        )
        assert hold.holding.wait(timeout=30)
        second_new = NewDrawer("w", "r", second_text)
        second = pool.submit(write_drawer, store, second_new, POLICY, memory=second_index)
        time.sleep(0.5)  # the second write reaches the room while the first is uncommitted
        hold.release.set()
        one, other = first.result(timeout=60), second.result(timeout=60)

    assert one.created
    assert len(_room_contents(store)) == 1 + stored
    if stored == 1:
        assert not other.created
        assert other.drawer.id == one.drawer.id
    else:
        assert other.created
        assert [link.drawer for link in other.similar] == [one.drawer.id]
        assert other.similar[0].kind == "near"


def test_a_named_write_while_another_of_that_name_is_uncommitted_waits_and_is_refused(
    store: Any,
) -> None:
    """The name holder is read under the room's lock (taken by that read on Neo4j): a second
    write of the name waits for the first to commit, then finds it holds the name."""
    memory = _built(store)
    with holding_first("create_drawer") as hold, ThreadPoolExecutor(max_workers=2) as pool:
        first = pool.submit(
            write_drawer, store, NewDrawer("w", "r", TEXT, name="runbook"), POLICY, memory=memory
        )
        assert hold.holding.wait(timeout=30)
        other = NewDrawer("w", "r", "the quarterly budget review moved to tuesday", name="runbook")
        second = pool.submit(write_drawer, store, other, POLICY, memory=memory)
        time.sleep(0.5)  # the second write reaches the room while the first is uncommitted
        hold.release.set()
        one = first.result(timeout=60)
        with pytest.raises(DrawerNameTaken) as taken:
            second.result(timeout=60)

    assert one.created
    assert taken.value.details["drawer"] == one.drawer.id
    assert _room_contents(store) == [TEXT]


def test_a_supersede_while_another_of_that_drawer_is_uncommitted_waits_and_is_refused(
    store: Any,
) -> None:
    """The drawer is read again under the room's lock (taken by that read on Neo4j): a second
    supersede waits for the first to commit, then finds the drawer closed."""
    memory = _built(store)
    old = write_drawer(store, NewDrawer("w", "r", TEXT, name="runbook"), POLICY, memory=memory)
    with (
        holding_first("create_drawer_replacing") as hold,
        ThreadPoolExecutor(max_workers=2) as pool,
    ):
        first = pool.submit(
            supersede_drawer, store, old.drawer.id, f"{TEXT}, twice", POLICY, memory=memory
        )
        assert hold.holding.wait(timeout=30)
        second = pool.submit(
            supersede_drawer, store, old.drawer.id, f"{TEXT}, once", POLICY, memory=memory
        )
        time.sleep(0.5)  # the second supersede reaches the room while the first is uncommitted
        hold.release.set()
        one = first.result(timeout=60)
        with pytest.raises(DrawerSuperseded):
            second.result(timeout=60)

    assert one.created and one.superseded == old.drawer.id
    assert _room_contents(store) == sorted([TEXT, f"{TEXT}, twice"])
