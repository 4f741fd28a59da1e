"""The in-memory drawer index's ranking, one write or a whole batch at once (design §4.5).

`DrawerIndex.choose_all` ranks every write of a checkpoint batch in one numpy pass; each
write's choice must be what the rules of `drawer_candidates` give it alone, spelled out here
one drawer at a time: the rarest word pairs (their newest drawers), the bands under the cap,
lengths that allow a near copy, then by shared probes and id.
"""

import random
import threading
import uuid
from typing import Any

import numpy as np
import pytest

from castlegraph.graph.indexes import drawer_index, recent_terms
from castlegraph.graph.indexes.drawer_index import Choice, DrawerIndex, Limits, Probes
from castlegraph.graph.indexes.key_segments import KeyIndex

CAPS = Limits(per_term=4, rare_terms=3, limit=20, any_len_above=2000)
TERMS = [f"{n:016x}" for n in range(40)]


def _room(rng: random.Random, size: int) -> list[tuple[str, list[str], int]]:
    """Drawers (id, terms, normal-form length): a few common terms, many rare ones."""
    drawers = []
    for _ in range(size):
        terms = rng.sample(TERMS[:6], 2) + rng.sample(TERMS, rng.randint(1, 8))
        drawers.append((str(uuid.UUID(int=rng.getrandbits(128))), sorted(set(terms)), 0))
    return [(i, t, rng.choice([40, 50, 60, 3000])) for i, t, _ in drawers]


def _expected(
    room: list[tuple[str, list[str], int]], dead: set[str], write: Probes, caps: Limits = CAPS
) -> tuple[list[str], list[str]]:
    live = [(row, d) for row, d in enumerate(room) if d[0] not in dead]

    def near(length: int) -> bool:
        low, high = write.lengths
        return length >= low and (length <= high or length > caps.any_len_above)

    def holders(term: str) -> list[tuple[int, tuple[str, list[str], int]]]:
        return [(row, d) for row, d in live if term in d[1]]

    def ranked(rows: list[tuple[int, tuple[str, list[str], int]]]) -> list[str]:
        shared: dict[str, int] = {}
        for _, d in rows:
            shared[d[0]] = shared.get(d[0], 0) + 1
        return sorted(shared, key=lambda i: (-shared[i], i))

    sizes = {a: min(len(holders(a)), caps.per_term) for a in write.anchors}
    rare = sorted((a for a in write.anchors if sizes[a]), key=lambda a: (sizes[a], a))
    terms = [
        (row, d)
        for a in rare[: caps.rare_terms]
        for row, d in holders(a)[-caps.per_term :]
        if near(d[2])
    ]
    bands = [
        (row, d)
        for b in write.bands
        if len(holders(b)) < caps.per_term
        for row, d in holders(b)
        if near(d[2])
    ]
    return ranked(terms), ranked(bands)


def _add_in_segments(
    index: DrawerIndex, room: list[tuple[str, list[str], int]], rng: random.Random
) -> None:
    """The room as several segments, as writes add them (a later one holds later rows), some
    drawers storing a term twice: two equal entries, which count once."""
    start = 0
    while start < len(room):
        end = start + rng.randint(1, 12)
        index._add([(i, t + t[: rng.randint(0, 2)], n) for i, t, n in room[start:end]])
        start = end


def _listed(choice: Choice) -> tuple[list[str], list[str]]:
    return list(choice.terms[: len(choice.terms)]), list(choice.bands[: len(choice.bands)])


def test_a_batch_is_ranked_write_by_write_as_the_rules_rank_one_write(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(5)
    for _ in range(60):
        # Caps of one to four: a common term's newest drawers end before a segment's do, and
        # a dead or repeated one among them sends the lookup further back.
        caps = Limits(rng.choice([1, 2, 4]), rng.choice([1, 3]), CAPS.limit, CAPS.any_len_above)
        room = _room(rng, rng.randint(0, 60))
        # The latest rows held by term until a few make a segment, or all of them.
        monkeypatch.setattr(recent_terms, "RECENT_ROWS", rng.choice([1, 3, 7, 512]))
        index = DrawerIndex()
        _add_in_segments(index, room, rng)
        dead = {d[0] for d in room if rng.random() < 0.15}
        index._bury(dead)
        writes = [
            Probes(
                rng.sample(TERMS, rng.randint(0, 6)),
                rng.sample(TERMS, rng.randint(0, 6)),
                rng.choice([(30, 55), (45, 70), (0, 10)]),
            )
            for _ in range(rng.randint(1, 6))
        ]
        chosen = index.choose_all(writes, caps)
        assert [_listed(c) for c in chosen] == [_expected(room, dead, w, caps) for w in writes]
        assert [_listed(index.choose(w.anchors, w.bands, w.lengths, caps)) for w in writes] == [
            _listed(c) for c in chosen
        ]


def test_a_write_adding_its_row_while_another_ranks_waits_for_the_ranking(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A write adds its row after its unit (`written`), outside the store's lock, while another
    write may be ranking: the ranking reads the packed ids through a view of their buffer, which
    the added row must not grow meanwhile (it raised `BufferError`: a 500 under 4 writers). The
    row is added as the ranking reads the ids: numpy's order keys, or the compiled core's arrays
    (`KeyIndex.packed`), whichever core runs."""
    index = DrawerIndex()
    index._add([(str(uuid.UUID(int=n)), [TERMS[0], TERMS[n + 1]], 40) for n in range(3)])
    errors: list[BaseException] = []
    writers: list[threading.Thread] = []
    order_keys, packed = KeyIndex.order_keys, KeyIndex.packed

    def add_row() -> None:
        try:
            with index._lock:  # as `written` adds a committed write's row
                index._add([(str(uuid.uuid4()), [TERMS[9]], 40)])
        except BaseException as error:
            errors.append(error)

    def a_row_added_meanwhile(keys: KeyIndex) -> None:
        view = np.frombuffer(keys._uuids, dtype=np.uint8)  # held as the ranking holds its own
        writer = threading.Thread(target=add_row)
        writers.append(writer)
        writer.start()
        writer.join(0.5)  # it cannot finish while the ranking holds the index's lock
        del view

    def ranking_while_a_row_is_added(keys: KeyIndex, rows: Any) -> Any:
        keys_of_rows = order_keys(keys, rows)
        a_row_added_meanwhile(keys)
        return keys_of_rows

    def read_while_a_row_is_added(keys: KeyIndex) -> Any:
        arrays = packed(keys)
        a_row_added_meanwhile(keys)
        return arrays

    monkeypatch.setattr(KeyIndex, "order_keys", ranking_while_a_row_is_added)
    monkeypatch.setattr(KeyIndex, "packed", read_while_a_row_is_added)
    [choice] = index.choose_all([Probes([TERMS[0]], [], (30, 55))], CAPS)
    for writer in writers:
        writer.join()
    assert errors == []
    assert list(choice.terms[:3]) == sorted(str(uuid.UUID(int=n)) for n in range(3))
    assert index._keys.rows == 4


def _ranking(count: int) -> tuple[Any, list[str]]:
    """A ranking of `count` rows, newest first, and their ids in that order."""
    keys = KeyIndex()
    ids = [str(uuid.UUID(int=n + 1)) for n in range(count)]
    rows = [keys.row_for(drawer_id) for drawer_id in ids]
    return drawer_index._Ranked(keys, rows[::-1]), ids[::-1]


def test_a_ranking_read_gives_its_ids_in_order() -> None:
    ranked, ids = _ranking(19)
    assert ranked[1] == ids[1]
    assert list(ranked) == ids
    assert list(enumerate(ranked))[-1] == (len(ids) - 1, ids[-1])
    assert ranked[-1] == ids[-1]
    assert ranked[3:5] == ids[3:5]


def test_a_place_before_a_ranking_s_start_is_an_index_error() -> None:
    """Not the last id converted so far, as `ranked[-1]` is."""
    ranked, ids = _ranking(5)
    assert ranked[0] == ids[0]
    with pytest.raises(IndexError):
        ranked[-6]
    with pytest.raises(IndexError):
        ranked[5]
