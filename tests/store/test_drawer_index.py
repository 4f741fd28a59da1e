"""The in-memory drawer candidate index against the database's own, on every backend (design §4.5).

The property: for random rooms (near copies, exact copies, other agents' diary entries,
superseded drawers) and random writes into them, the candidates a write reads through the
in-memory index (`graph.drawers.candidates.chosen_candidates`) are exactly those the
database's term index gives (`graph.drawers.candidates.read_candidates`), whole where it gives
them whole. Rooms stay under the caps (32 drawers per term, 20 per branch), where the
database's choice is not arbitrary. Then the sequence that keeps it exact: a second instance's
writes and closes, a writer met mid-commit (Neo4j), a wiped graph.
Two `DrawerIndex` objects on one store stand for two service instances.
"""

import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest

from castlegraph.graph.backends import observe
from castlegraph.graph.drawers import batch_reads, candidates, drawer_batch, palace
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.drawers.palace import supersede_drawer, write_drawer
from castlegraph.graph.indexes import drawer_index
from castlegraph.graph.indexes.drawer_index import DrawerIndex
from castlegraph.graph.indexes.key_segments import HASH_BITS
from castlegraph.graph.indexes.known_drawers import ENTRY_BYTES, KnownDrawers
from castlegraph.graph.records import WriteOutcome
from castlegraph.resolver.drawers import MAX_LINKS, DrawerText, prepare_text
from tests.support.holding import holding_first

WORDS = [
    "rotate",
    "staging",
    "certificates",
    "before",
    "audit",
    "friday",
    "morning",
    "deploy",
    "cluster",
    "review",
    "notes",
    "backup",
    "restore",
    "weekly",
    "incident",
    "storage",
    "engine",
    "latency",
    "budget",
    "owner",
    "release",
    "train",
]
POLICY = DedupPolicy()


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 14)))


def _two_instances(store: Any) -> tuple[DrawerIndex, DrawerIndex]:
    """Two indexes built on one store: two service instances."""
    here, there = DrawerIndex(), DrawerIndex()
    here.build(store)
    there.build(store)
    return here, there


def _drawers_in(store: Any, room: str) -> int:
    """How many current drawers the room holds."""
    rows = store.read(
        lambda tx: tx.run(
            "room_drawers_page",
            wing="w",
            room=room,
            limit=1000,
            after_created=None,
            after_id=None,
            viewer=None,
        ),
        use_case="test",
    )
    return len(rows)


def _typo(text: str, rng: random.Random) -> str:
    at = rng.randrange(len(text) - 1)
    return text[:at] + text[at + 1] + text[at] + text[at + 2 :]


class _Statements:
    """The names of the statements run while subscribed (`graph.backends.observe`): round trips, but
    Neo4j's room lock (`take_lock`), which FalkorDB takes in the process."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def statement(self, name: str, seconds: float, failed: bool) -> None:
        if name != "take_lock":
            self.names.append(name)

    def unit(self, use_case: str, result: object) -> None:
        """Committed units are not counted."""


@contextmanager
def _round_trips() -> Iterator[list[str]]:
    recorder = _Statements()
    observe.subscribe(recorder)
    try:
        yield recorder.names
    finally:
        observe.unsubscribe(recorder)


def _settled(store: Any) -> list[str]:
    """The drawer sequence read again under its lock where a unit found it moved: on Neo4j,
    whose commits other readers see part by part, a round trip of its own (`Tx.run_settled`)."""
    return [] if store.dialect == "falkordb" else ["drawer_seq_settled"]


def _room(store: Any, rng: random.Random, room: str, size: int) -> list[str]:
    """A room of `size` writes (some near or exact copies, some diary entries of two agents,
    a few superseded), written without the in-memory index; its texts."""
    texts: list[str] = []
    for _ in range(size):
        roll = rng.random()
        text = _typo(rng.choice(texts), rng) if texts and roll < 0.3 else _text(rng)
        text = rng.choice(texts) if texts and roll > 0.9 else text
        agent = rng.choice(["ann", "bob"]) if rng.random() < 0.2 else None
        new = NewDrawer("w", room, text, kind="diary" if agent else "manual", agent=agent)
        outcome = write_drawer(store, new, POLICY)
        texts.append(text)
        if outcome.created and rng.random() < 0.1:
            supersede_drawer(store, outcome.drawer.id, _text(rng), POLICY)
    return texts


def _found(
    store: Any, memory: DrawerIndex | None, new: NewDrawer
) -> dict[str, tuple[bool, DrawerText]]:
    """Candidate id → whether it came whole, and its normal form, as one write of `new` reads
    them (through the index, a drawer it read before comes by its remembered normal form)."""
    prepared = prepare_text(new.wing, new.room, new.content, POLICY.near_threshold)

    def read(tx: Any) -> list[candidates.Candidate]:
        if memory is None:
            return candidates.read_candidates(tx, new, prepared)
        assert memory.catch_up(tx)
        return candidates.chosen_candidates(
            tx, new, prepared, candidates.Lookup.of(memory, prepared)
        )

    return {c.id: (c.drawer is not None, c.text) for c in store.read(read, use_case="test")}


@pytest.mark.parametrize("seed", range(3))
def test_the_index_finds_exactly_what_the_database_finds(store: Any, seed: int) -> None:
    rng = random.Random(seed)
    rooms = {room: _room(store, rng, room, 24) for room in ("a", "b")}
    memory = DrawerIndex()
    assert memory.build(store) is not None
    assert memory.entries > 0
    compared = 0
    for room, texts in rooms.items():
        for _ in range(12):
            text = _typo(rng.choice(texts), rng) if rng.random() < 0.6 else rng.choice(texts)
            viewer = rng.choice([None, "ann", "bob"])
            new = NewDrawer(
                "w",
                room,
                text,
                viewer=viewer,
                agent=viewer,
                compare_same_agent_only=rng.random() < 0.2,
            )
            expected = _found(store, None, new)
            assert _found(store, memory, new) == expected
            compared += len(expected)
    assert compared > 0  # the writes had candidates to compare
    assert memory.known.cache_info().hits > 0  # and read some of them as known drawers


@pytest.mark.parametrize("seed", range(3))
def test_writes_decided_unread_decide_as_writes_that_read(store: Any, seed: int) -> None:
    """Twin rooms, one history: each write goes into one through the in-memory index (unread
    where the instance knows every chosen drawer) and into the other through the database's
    index. Every verdict and every link is the same, drawers compared by their place in the
    history (exact and near copies, other agents' diary entries, supersedes)."""
    rng = random.Random(50 + seed)
    memory = DrawerIndex()
    memory.build(store)
    # Each room's drawers by the order they were stored in: twins have the same place.
    places: tuple[dict[str, int], dict[str, int]] = ({}, {})
    texts: list[str] = []
    unread = 0

    def answer(outcome: WriteOutcome, room: int) -> tuple[bool, int, list[Any], set[int]]:
        """The verdict, the drawer's place, its links' kinds and similarities, and the places
        of the links it keeps whatever the order of ids: those above the weakest kept when
        `MAX_LINKS` cut some (ties there go by id, which differs between the rooms)."""
        mine = places[room]
        links = sorted(((s.kind, round(s.similarity, 9)) for s in outcome.similar), reverse=True)
        weakest = min((s.similarity for s in outcome.similar), default=0.0)
        cut = len(outcome.similar) == MAX_LINKS
        linked = {mine[s.drawer] for s in outcome.similar if not cut or s.similarity > weakest}
        return outcome.created, mine.setdefault(outcome.drawer.id, len(mine)), links, linked

    for step in range(40):
        roll = rng.random()
        text = _typo(rng.choice(texts), rng) if texts and roll < 0.4 else _text(rng)
        text = rng.choice(texts) if texts and roll > 0.85 else text
        texts.append(text)
        agent = rng.choice(["ann", "bob"]) if rng.random() < 0.2 else None
        viewer = rng.choice([None, "ann", "bob"])
        own_only = rng.random() < 0.1
        twins = [
            NewDrawer(
                "w",
                room,
                text,
                kind="diary" if agent else "manual",
                agent=agent,
                viewer=viewer,
                compare_same_agent_only=own_only,
            )
            for room in ("a", "b")
        ]
        with _round_trips() as names:
            through_index = write_drawer(store, twins[0], POLICY, memory=memory)
        unread += names == ["create_drawer_unless_moved"]
        through_database = write_drawer(store, twins[1], POLICY)
        # The write into the twin room moved the drawer sequence: caught up here, as this
        # instance would be by its next read, so that the next write may be decided unread.
        store.read(memory.catch_up, use_case="test")
        assert answer(through_index, 0) == answer(through_database, 1), step
        if through_index.created and rng.random() < 0.1:
            replacement = _text(rng)
            a = supersede_drawer(store, through_index.drawer.id, replacement, POLICY, memory=memory)
            b = supersede_drawer(store, through_database.drawer.id, replacement, POLICY)
            store.read(memory.catch_up, use_case="test")
            assert answer(a, 0) == answer(b, 1)
    assert unread > 20  # most writes were decided without a read


def test_a_build_is_one_segment_of_every_hash_bit_whatever_its_pages(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages are gathered and sorted once (no merge of the index so far with each page: the
    peak of a build), and the segment keeps all `HASH_BITS`: what a write finds is the same."""
    rng = random.Random(3)
    texts = _room(store, rng, "r", 24)
    monkeypatch.setattr(drawer_index, "BUILD_PAGE", 5)
    memory = DrawerIndex()
    assert memory.build(store) is not None
    assert [s.geometry.hash_bits for s in memory._keys.segments] == [HASH_BITS]
    for text in texts[:6]:
        new = NewDrawer("w", "r", _typo(text, rng))
        assert _found(store, memory, new) == _found(store, None, new)


@pytest.mark.parametrize("seed", range(3))
def test_a_batch_reads_through_the_index_what_it_reads_from_the_database(
    store: Any, seed: int
) -> None:
    """Items of every kind of reader in one batch: the batch's statement reads each chosen
    drawer once, and which item may compare with it (its room, its agent, its viewer: other
    agents' diary entries) is decided in Python, as the database decides it per write."""
    rng = random.Random(11 + seed)
    texts = _room(store, rng, "r", 24)
    _room(store, rng, "r2", 6)
    memory = DrawerIndex()
    memory.build(store)
    items = drawer_batch.prepare_drawers(
        [
            NewDrawer(
                "w",
                rng.choice(["r", "r", "r2"]),
                _typo(rng.choice(texts), rng),
                agent=rng.choice([None, "ann", "bob"]),
                compare_same_agent_only=rng.random() < 0.3,
                viewer=rng.choice([None, "ann", "bob"]),
            )
            for _ in range(12)
        ],
        0.9,
    )

    def read(tx: Any, chosen: DrawerIndex | None) -> dict[int, dict[str, bool]]:
        if chosen is None:
            found = batch_reads.read_batch_candidates(tx, items, True, store.dialect)
        else:
            assert chosen.catch_up(tx)
            found = batch_reads.read_batch_chosen(tx, items, chosen)
        return {
            i: {c.id: c.drawer is not None for c in f.candidates.values()} for i, f in found.items()
        }

    expected = store.read(lambda tx: read(tx, None), use_case="test")
    assert any(expected.values())
    assert store.read(lambda tx: read(tx, memory), use_case="test") == expected
    # Read again, every chosen drawer is known (not asked for), and filtered by
    # the place, agent and kind remembered with it.
    misses = memory.known.cache_info().misses
    assert store.read(lambda tx: read(tx, memory), use_case="test") == expected
    assert memory.known.cache_info().misses == misses


def test_another_instances_writes_and_closes_are_caught_up_before_a_decision(store: Any) -> None:
    here, there = _two_instances(store)
    original = "rotate the staging certificates before the audit on friday"
    first = write_drawer(store, NewDrawer("w", "r", original), POLICY, memory=there).drawer
    assert there.seen == 1 and here.seen == 0
    copy = original.replace("audit", "audti")
    near = write_drawer(store, NewDrawer("w", "r", copy), POLICY, memory=here)
    assert [s.drawer for s in near.similar] == [first.id]
    assert here.seen == 2  # caught up on `there`'s write, then its own
    # `there` closes the original: `here` learns it is dead, and stops offering it.
    replaced = supersede_drawer(
        store, first.id, "something else entirely now", POLICY, memory=there
    )
    again = write_drawer(store, NewDrawer("w", "r", original), POLICY, memory=here)
    assert again.created
    assert {s.drawer for s in again.similar} == {near.drawer.id}
    assert not here.counts(first.id) and here.counts(near.drawer.id)
    assert replaced.superseded == first.id


def test_a_catch_up_waits_for_a_writer_still_committing_the_counter(store: Any) -> None:
    """Neo4j shows a commit to other readers part by part: a catch-up that read the drawer
    sequence mid-commit (its new value, not yet every drawer stamped with it) would count it as
    seen and leave those drawers out of the index for good, and a near copy of one would go
    unlinked. So a catch-up that finds the counter moved reads it again under its lock, which
    a writer holds until its commit is applied: here it finds the first drawer's commit, waits
    for the second's, and takes both in."""
    if store.dialect == "falkordb":
        pytest.skip("FalkorDB applies each statement whole, and serialises every unit")
    here, there = _two_instances(store)
    text = "rotate the staging certificates before the audit on friday"
    first = write_drawer(store, NewDrawer("w", "a", text), POLICY, memory=there).drawer
    with holding_first("create_drawer_unless_moved") as hold, ThreadPoolExecutor(2) as pool:
        second = pool.submit(
            write_drawer,
            store,
            NewDrawer("w", "b", "weekly backup restore notes"),
            POLICY,
            memory=there,
        )
        assert hold.holding.wait(timeout=30)  # its statement ran; its commit is held
        caught_up = pool.submit(store.read, here.catch_up, use_case="test_catch_up")
        time.sleep(0.5)
        assert not caught_up.done()  # the counter moved: waiting for its lock
        hold.release.set()
        written = second.result(timeout=60).drawer
        assert caught_up.result(timeout=60) is True
    assert here.seen == there.seen == 2
    assert here.counts(first.id) and here.counts(written.id)


def test_a_known_drawer_deleted_by_another_instance_is_no_candidate(store: Any) -> None:
    """A delete stamps nothing; the sequence counts it. The instance that remembers the drawer
    sees the count move, forgets what it knows and reads the chosen drawers whole again: the
    deleted one is not found."""
    here, there = _two_instances(store)
    original = "rotate the staging certificates before the audit on friday"
    first = write_drawer(store, NewDrawer("w", "r", original), POLICY, memory=here).drawer
    assert here.known.get(first.id) is not None
    palace.delete_drawer(store, first.id, memory=there)
    copy = original.replace("audit", "audti")
    with _round_trips() as names:
        near = write_drawer(store, NewDrawer("w", "r", copy), POLICY, memory=here)
    assert near.created and not near.similar
    assert names == [
        "create_drawer_unless_moved",  # refused: the sequence counted a delete
        "drawer_candidates_by_ids",
        *_settled(store),
        "drawer_candidates_by_ids",
        "create_drawer",
    ]
    assert here.known.get(first.id) is None


def test_a_batch_after_another_instances_delete_does_not_compare_with_the_deleted(
    store: Any,
) -> None:
    here, there = _two_instances(store)
    original = "the storage engine keeps a weekly backup of every cluster"
    kept_text = "rotate the staging certificates before the audit on friday"
    gone = write_drawer(store, NewDrawer("w", "r", original), POLICY, memory=here).drawer
    kept = write_drawer(store, NewDrawer("w", "r", kept_text), POLICY, memory=here).drawer
    palace.delete_drawer(store, gone.id, memory=there)
    items = [
        NewDrawer("w", "r", original.replace("weekly", "weelky")),
        NewDrawer("w", "r", kept_text.replace("audit", "audti")),
    ]
    near_gone, near_kept = drawer_batch.write_drawers(store, items, POLICY, memory=here)
    assert isinstance(near_gone, WriteOutcome) and near_gone.created and not near_gone.similar
    assert isinstance(near_kept, WriteOutcome) and near_kept.created
    assert [s.drawer for s in near_kept.similar] == [kept.id]
    assert here.known.get(gone.id) is None


def test_a_batch_reads_the_sequence_with_its_candidates_and_catches_up_only_when_it_moved(
    store: Any,
) -> None:
    """One round trip before the write when no other instance wrote since; when one did, the
    read shows it, the index takes it in, and the batch is chosen and read again: the drawer
    the other instance wrote is a candidate."""
    here, there = _two_instances(store)
    original = "rotate the staging certificates before the audit on friday"
    mine = "the storage engine keeps a weekly backup of every cluster"
    with _round_trips() as names:
        [own] = drawer_batch.write_drawers(store, [NewDrawer("w", "r", mine)], POLICY, memory=here)
    assert names == ["drawer_batch_candidates_by_ids", "create_drawers"]
    assert isinstance(own, WriteOutcome) and own.created
    first = write_drawer(store, NewDrawer("w", "r", original), POLICY, memory=there).drawer
    items = [NewDrawer("w", "r", original.replace("audit", "audti"))]
    with _round_trips() as names:
        [near] = drawer_batch.write_drawers(store, items, POLICY, memory=here)
    assert names == [
        "drawer_batch_candidates_by_ids",
        *_settled(store),
        "drawers_since",  # the index takes in what `there` wrote
        "drawer_batch_candidates_by_ids",
        "create_drawers",
    ]
    assert isinstance(near, WriteOutcome) and [s.drawer for s in near.similar] == [first.id]


def test_an_own_delete_keeps_what_the_instance_knows(store: Any) -> None:
    """The instance that deletes takes its own delete in: the drawer stops counting and is no
    longer known; the other drawers it knows stay known, and its next write reads nothing."""
    memory = DrawerIndex()
    memory.build(store)
    original = "the storage engine keeps a weekly backup of every cluster"
    kept_text = "rotate the staging certificates before the audit on friday"
    gone = write_drawer(store, NewDrawer("w", "r", original), POLICY, memory=memory).drawer
    kept = write_drawer(store, NewDrawer("w", "r", kept_text), POLICY, memory=memory).drawer
    palace.delete_drawer(store, gone.id, memory=memory)
    assert memory.known.get(gone.id) is None and not memory.counts(gone.id)
    with _round_trips() as names:
        near = write_drawer(
            store, NewDrawer("w", "r", kept_text.replace("audit", "audti")), POLICY, memory=memory
        )
    assert names == ["create_drawer_unless_moved"]
    assert [s.drawer for s in near.similar] == [kept.id]
    assert memory.known.get(kept.id) is not None


def test_a_batch_through_the_index_decides_as_single_writes_do(store: Any) -> None:
    memory = DrawerIndex()
    memory.build(store)
    original = "the storage engine keeps a weekly backup of every cluster"
    stored = write_drawer(store, NewDrawer("w", "r", original), POLICY, memory=memory).drawer
    items = [
        NewDrawer("w", "r", original.replace("weekly", "weelky")),
        NewDrawer("w", "r", original),
        NewDrawer("w", "r", "an unrelated note about the release train owner"),
    ]
    near, exact, other = drawer_batch.write_drawers(store, items, POLICY, memory=memory)
    assert isinstance(near, WriteOutcome) and near.created
    assert [s.drawer for s in near.similar] == [stored.id]
    assert isinstance(exact, WriteOutcome) and not exact.created
    assert exact.drawer.id == stored.id
    assert isinstance(other, WriteOutcome) and other.created and not other.similar
    assert memory.seen == 2  # its own statement: learnt without a catch-up


def test_a_wiped_graph_starts_the_index_over(store: Any) -> None:
    """On Neo4j the write's own statement (`create_drawer_unless_moved`) holds the lock on the
    missing counter: its catch-up takes the absence in as it is, never reading it again in a
    transaction beside the unit, which would wait for the unit itself."""
    memory = DrawerIndex()
    memory.build(store)
    text = "rotate the staging certificates before the audit on friday"
    write_drawer(store, NewDrawer("w", "r", text), POLICY, memory=memory)
    assert memory.entries > 0
    store.wipe()
    again = write_drawer(
        store, NewDrawer("w", "r", text.replace("audit", "audti")), POLICY, memory=memory
    )
    assert again.created and not again.similar
    assert memory.seen == 1


def test_a_write_whose_every_hit_is_closed_finds_nothing(store: Any) -> None:
    memory = DrawerIndex()
    memory.build(store)
    text = "rotate the staging certificates before the audit on friday"
    old = write_drawer(store, NewDrawer("w", "r", text), POLICY, memory=memory).drawer
    supersede_drawer(store, old.id, "moved to port 9090 for good", POLICY, memory=memory)
    again = write_drawer(store, NewDrawer("w", "r", text), POLICY, memory=memory)
    assert again.created and not again.similar


def test_a_single_write_reads_the_drawer_sequence_with_its_candidates(store: Any) -> None:
    """A write whose chosen drawers the instance does not know (another instance wrote
    them, read by this one's build) reads them with the drawer sequence, in one round trip."""
    original = "rotate the staging certificates before the audit on friday"
    first = write_drawer(store, NewDrawer("w", "r", original), POLICY).drawer
    memory = DrawerIndex()
    memory.build(store)
    with _round_trips() as names:
        near = write_drawer(
            store, NewDrawer("w", "r", original.replace("audit", "audti")), POLICY, memory=memory
        )
    assert names == ["drawer_candidates_by_ids", "create_drawer"]
    assert [s.drawer for s in near.similar] == [first.id]
    assert memory.seen == 2


def test_a_write_whose_candidates_are_known_is_one_round_trip(store: Any) -> None:
    """The instance knows every drawer its index chose: it decides without reading, and its
    statement checks that the sequence did not move and that the room holds no copy."""
    memory = DrawerIndex()
    memory.build(store)
    original = "rotate the staging certificates before the audit on friday"
    first = write_drawer(store, NewDrawer("w", "r", original), POLICY, memory=memory).drawer
    with _round_trips() as names:
        near = write_drawer(
            store, NewDrawer("w", "r", original.replace("audit", "audti")), POLICY, memory=memory
        )
    assert names == ["create_drawer_unless_moved"]
    assert [(s.drawer, s.kind) for s in near.similar] == [(first.id, "near")]
    assert memory.seen == 2
    assert _drawers_in(store, "r") == 2


def test_a_copy_the_index_does_not_keep_is_read_before_the_write(store: Any) -> None:
    """Same content or same normal form: the unread statement writes nothing (the in-memory
    index keeps no hashes), the write reads the copy and answers as it always did."""
    memory = DrawerIndex()
    memory.build(store)
    original = "rotate the staging certificates before the audit on friday"
    first = write_drawer(store, NewDrawer("w", "r", original), POLICY, memory=memory).drawer
    with _round_trips() as names:
        exact = write_drawer(store, NewDrawer("w", "r", original), POLICY, memory=memory)
    assert names == ["create_drawer_unless_moved", "drawer_candidates_by_ids"]
    assert not exact.created and exact.drawer.id == first.id
    with _round_trips() as names:
        twin = write_drawer(store, NewDrawer("w", "r", original.upper()), POLICY, memory=memory)
    assert names == ["create_drawer_unless_moved", "drawer_candidates_by_ids", "create_drawer"]
    assert [(s.drawer, s.kind) for s in twin.similar] == [(first.id, "normalized")]
    assert _drawers_in(store, "r") == 2
    assert memory.seen == 2


def _taken_in_after_the_next_choice(
    store: Any, memory: DrawerIndex, monkeypatch: pytest.MonkeyPatch, text: str
) -> str:
    """`text` written by a unit of this instance whose own drawer reaches the index
    (`written`) only once the next write has chosen from it: the unit that commits just
    before another takes the store's lock. The written drawer's id."""
    deferred: list[Any] = []
    with monkeypatch.context() as patched:
        patched.setattr(memory, "written", lambda *args: deferred.append(args))
        written = write_drawer(store, NewDrawer("w", "r", text), POLICY, memory=memory).drawer
    choose_all = memory.choose_all

    def choose_then_take_in(*args: Any) -> Any:
        choices = choose_all(*args)
        while deferred:
            memory.written(*deferred.pop())
        return choices

    monkeypatch.setattr(memory, "choose_all", choose_then_take_in)
    return written.id


def test_a_drawer_taken_in_after_the_choice_is_chosen_again(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read finds the sequence where the index stands now, not where it stood for the
    choice: the write chooses again and links to the drawer taken in between."""
    memory = DrawerIndex()
    memory.build(store)
    write_drawer(store, NewDrawer("w", "elsewhere", "the sequence exists"), POLICY, memory=memory)
    original = "the storage engine keeps a weekly backup of every cluster"
    first = _taken_in_after_the_next_choice(store, memory, monkeypatch, original)
    copy = NewDrawer("w", "r", original.replace("weekly", "weelky"))
    near = write_drawer(store, copy, POLICY, memory=memory)
    assert [s.drawer for s in near.similar] == [first]


def test_a_batch_chooses_again_when_a_drawer_was_taken_in_after_its_choice(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = DrawerIndex()
    memory.build(store)
    write_drawer(store, NewDrawer("w", "elsewhere", "the sequence exists"), POLICY, memory=memory)
    original = "the storage engine keeps a weekly backup of every cluster"
    first = _taken_in_after_the_next_choice(store, memory, monkeypatch, original)
    items = [NewDrawer("w", "r", original.replace("weekly", "weelky"))]
    [near] = drawer_batch.write_drawers(store, items, POLICY, memory=memory)
    assert isinstance(near, WriteOutcome) and [s.drawer for s in near.similar] == [first]


@pytest.mark.parametrize("sequence_before", [False, True])
def test_a_write_that_meets_another_instances_writes_takes_them_in_and_chooses_again(
    store: Any, sequence_before: bool
) -> None:
    """Where the instance's index saw the drawer sequence (it existed at the build), the write
    first tries unread: its statement finds the sequence moved and writes nothing."""
    if sequence_before:
        write_drawer(store, NewDrawer("w", "elsewhere", "the sequence exists"), POLICY)
    here, there = _two_instances(store)
    original = "the storage engine keeps a weekly backup of every cluster"
    first = write_drawer(store, NewDrawer("w", "r", original), POLICY, memory=there).drawer
    with _round_trips() as names:
        near = write_drawer(
            store, NewDrawer("w", "r", original.replace("weekly", "weelky")), POLICY, memory=here
        )
    unread = ["create_drawer_unless_moved"] if sequence_before else []
    assert names == [
        *unread,
        "drawer_candidates_by_ids",
        *_settled(store),
        "drawers_since",
        "drawer_candidates_by_ids",
        "create_drawer",
    ]
    assert [s.drawer for s in near.similar] == [first.id]
    assert _drawers_in(store, "r") == 2
    assert here.seen == 2 + sequence_before


def test_a_delete_in_a_palace_whose_drawers_predate_the_sequence(store: Any) -> None:
    """Drawers stored before the drawer sequence existed have no drawer sequence: a delete creates
    it, as a write would, and the instance's index keeps the drawers it built from."""
    original = "the storage engine keeps a weekly backup of every cluster"
    kept_text = "rotate the staging certificates before the audit on friday"
    gone = write_drawer(store, NewDrawer("w", "r", original), POLICY).drawer
    kept = write_drawer(store, NewDrawer("w", "r", kept_text), POLICY).drawer
    store.run_text("MATCH (d:Drawer) REMOVE d.seq", {})
    store.run_text("MATCH (c:Meta {name: 'drawer_seq'}) DETACH DELETE c", {})
    memory = DrawerIndex()
    memory.build(store)
    assert memory.seen == 0
    palace.delete_drawer(store, gone.id, memory=memory)
    assert not memory.counts(gone.id) and memory.counts(kept.id)
    near = write_drawer(
        store, NewDrawer("w", "r", kept_text.replace("audit", "audti")), POLICY, memory=memory
    )
    assert [s.drawer for s in near.similar] == [kept.id]
    assert memory.seen == 1


def test_a_warmed_index_decides_writes_into_a_room_it_did_not_write_in_one_round_trip(
    store: Any,
) -> None:
    """A service just started knows no drawer; warming after the build makes the current ones
    known, newest first (a closed one is not), so a near copy of a drawer another instance
    wrote is decided unread."""
    writer = DrawerIndex()
    writer.build(store)
    original = "rotate the staging certificates before the audit on friday"
    first = write_drawer(store, NewDrawer("w", "r", original), POLICY, memory=writer).drawer
    old = write_drawer(store, NewDrawer("w", "r", "the backup runs nightly"), POLICY).drawer
    supersede_drawer(store, old.id, "the backup runs every hour", POLICY)
    started = DrawerIndex()
    started.build(store)
    assert started.known.get(first.id) is None
    assert started.warm(store) == 2
    assert started.known.get(first.id) is not None and started.known.get(old.id) is None
    with _round_trips() as names:
        near = write_drawer(
            store, NewDrawer("w", "r", original.replace("audit", "audti")), POLICY, memory=started
        )
    assert names == ["create_drawer_unless_moved"]
    assert [(s.drawer, s.kind) for s in near.similar] == [(first.id, "near")]


def test_warming_stops_when_the_known_drawers_are_full_keeping_the_newest(store: Any) -> None:
    texts = [f"note {n}: rotate the staging certificates of cluster {n}" for n in range(6)]
    ids = [write_drawer(store, NewDrawer("w", "r", text), POLICY).drawer.id for text in texts]
    memory = DrawerIndex()
    memory.build(store)
    entry = sys.getsizeof(DrawerText.of(texts[0]).normalized) + ENTRY_BYTES  # all one size
    memory.known = KnownDrawers(max_bytes=3 * entry + entry // 2)  # room for three and a half
    assert memory.warm(store) == 3
    assert [memory.known.get(i) is not None for i in ids] == [False] * 3 + [True] * 3


def test_warming_stops_at_a_delete_made_while_it_reads(store: Any) -> None:
    """The page read beside a delete may hold the drawer deleted: it is dropped, and the
    warming ends there."""
    kept = write_drawer(store, NewDrawer("w", "r", "the backup runs nightly"), POLICY).drawer
    gone = write_drawer(store, NewDrawer("w", "r", "rotate the certificates"), POLICY).drawer
    memory = DrawerIndex()
    memory.build(store)

    class DeletingOnFirstPage:
        def read(self, work: Any, *, use_case: str) -> Any:
            rows = store.read(work, use_case=use_case)
            palace.delete_drawer(store, gone.id, memory=memory)
            return rows

    assert memory.warm(DeletingOnFirstPage()) == 0  # type: ignore[arg-type]
    assert memory.known.get(gone.id) is None and memory.known.get(kept.id) is None
