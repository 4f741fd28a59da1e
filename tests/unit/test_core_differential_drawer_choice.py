"""The compiled core's drawer choice (`DrawerIndex.native_choose_all`) against its numpy twin
(`python_choose_all`): the same rows, in the same order, for every write of a batch.

Rooms are random: a built part (one segment, as `DrawerIndex.build` makes it) and drawers added
since, some in segments of their own and the latest held by term (`RECENT_ROWS`), drawers that
store a term twice, closed or deleted ones, ids that are no UUID (compared as text), one id
under two rows; caps from one upwards, so a common term's newest rows end inside a segment and
a dead one among them sends the twin's lookup further back. Skipped where the core is not built.
"""

import random
import uuid
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castlegraph.graph.indexes import drawer_index, recent_terms
from castlegraph.graph.indexes.drawer_index import Choice, DrawerIndex, Limits, Probes
from castlegraph.graph.indexes.key_segments import KeyIndex
from castlegraph.resolver import core
from tests.support.cores import chosen_back, needs_native

pytestmark = needs_native

TERMS = [f"{n:016x}" for n in range(24)] + ["é", "東京", "😀", "", "x" * 300]
"""The terms of a room: hashes as the rules make them, and any other text a probe could be."""
OTHER_IDS = ["drawer-7", "DRAWER-7", "é-drawer", "00000000-0000-0000-0000-00000000000A", ""]
"""Ids that are no UUID in its text form: kept as text, ranked as Python orders texts."""

Drawer = tuple[str, list[str], int]


@st.composite
def rooms(draw: st.DrawFn) -> tuple[list[Drawer], int, set[int]]:
    """Drawers (id, terms, normal-form length), how many the build indexes, and the rows dead."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    size = draw(st.integers(0, 90))
    drawers: list[Drawer] = []
    for _ in range(size):
        if drawers and rng.random() < 0.03:
            drawer_id = rng.choice(drawers)[0]  # one drawer under two rows
        elif rng.random() < 0.08:
            drawer_id = rng.choice(OTHER_IDS)
        else:
            drawer_id = str(uuid.UUID(int=rng.getrandbits(128)))
        common = rng.sample(TERMS[:4], rng.randint(0, 3))
        terms = common + rng.sample(TERMS, rng.randint(0, 6))
        terms += terms[: rng.choice([0, 0, 1, 2])]  # a term stored twice: two equal entries
        drawers.append((drawer_id, terms, rng.choice([0, 40, 50, 60, 3000])))
    built = draw(st.integers(0, size))
    dead = {row for row in range(size) if rng.random() < draw(st.sampled_from([0, 0.1, 0.5]))}
    return drawers, built, dead


def _index(drawers: list[Drawer], built: int, dead: set[int], rng: random.Random) -> DrawerIndex:
    """The room as a service holds it: the first `built` drawers as the build leaves them,
    the rest added a few at a time, then the dead rows buried."""
    index = DrawerIndex()
    keys = KeyIndex()
    gathered = drawer_index._Gathered(keys)
    gathered.add([(i, t) for i, t, _ in drawers[:built] if t])
    gathered.close()
    index._keys = keys
    index._lengths.extend(n for _, t, n in drawers[:built] if t)
    index._dead_rows = bytearray(keys.rows)
    index._recent = recent_terms.RecentRows(keys)
    start = built
    while start < len(drawers):
        end = start + rng.randint(1, 9)
        index._add([(i, t, n) for i, t, n in drawers[start:end] if t])
        start = end
    for row in dead:
        if row < len(index._dead_rows):
            index._dead_rows[row] = 1
    return index


probe_lists = st.lists(st.sampled_from(TERMS), max_size=10)
writes = st.lists(
    st.builds(
        Probes,
        probe_lists,
        probe_lists,
        st.sampled_from([(30, 55), (45, 70), (0, 10), (0, 5000), (3000, 3000)]),
    ),
    min_size=1,
    max_size=6,
)
limits = st.builds(
    Limits,
    st.integers(1, 6),
    st.integers(0, 4),
    st.just(20),
    st.sampled_from([2000, 45, 0]),
)


def _rows(choices: Sequence[Choice]) -> list[tuple[list[int], list[int], list[str], list[str]]]:
    """Each choice's ranked rows and their ids."""
    out = []
    for choice in choices:
        terms, bands = choice.terms, choice.bands
        assert isinstance(terms, drawer_index._Ranked)
        assert isinstance(bands, drawer_index._Ranked)
        out.append((terms._rows, bands._rows, list(terms), list(bands)))
    return out


@settings(max_examples=400, deadline=None)
@given(
    room=rooms(),
    batch=writes,
    caps=limits,
    recent_rows=st.sampled_from([1, 3, 7, 512]),
    seed=st.integers(0, 2**32),
)
def test_both_cores_choose_the_same_rows_in_the_same_order(
    room: tuple[list[Drawer], int, set[int]],
    batch: list[Probes],
    caps: Limits,
    recent_rows: int,
    seed: int,
) -> None:
    native = core.native_module()
    assert native is not None
    with pytest.MonkeyPatch.context() as patch:
        # The latest rows held by term until a few make a segment, or all of them.
        patch.setattr(recent_terms, "RECENT_ROWS", recent_rows)
        index = _index(*room, random.Random(seed))
    chosen = index.native_choose_all(batch, caps, native)
    assert chosen is not None
    assert _rows(chosen) == _rows(index.python_choose_all(batch, caps))


def test_the_native_core_chooses_without_the_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the compiled core chosen, `choose_all` answers from it: the numpy twin is not run."""
    index = DrawerIndex()
    ids = [str(uuid.UUID(int=n + 1)) for n in range(5)]
    index._add([(i, [TERMS[0], TERMS[1 + n % 2]], 40) for n, i in enumerate(ids)])
    index._bury([ids[4]])

    def twin(*_: Any) -> list[Choice]:
        raise AssertionError("the numpy twin ran under the compiled core")

    monkeypatch.setattr(DrawerIndex, "python_choose_all", twin)
    with chosen_back():
        core.choose("native")
        [choice] = index.choose_all([Probes([TERMS[1]], [TERMS[2]], (30, 55))], Limits(4, 8, 20, 0))
    assert list(choice.terms) == [ids[0], ids[2]]
    assert list(choice.bands) == [ids[1], ids[3]]


def test_a_probe_that_is_no_utf8_is_chosen_by_the_twin() -> None:
    """Python holds a lone surrogate in a string, which no UTF-8 can: the core answers None and
    `choose_all` runs the twin, with the same rows as every other probe gets."""
    native = core.native_module()
    assert native is not None
    odd = "\ud800"
    index = DrawerIndex()
    ids = [str(uuid.UUID(int=n + 1)) for n in range(3)]
    index._add([(i, [odd, TERMS[0]], 40) for i in ids])
    writes = [Probes([odd], [TERMS[0]], (30, 55))]
    caps = Limits(4, 8, 20, 2000)
    assert index.native_choose_all(writes, caps, native) is None
    with chosen_back():
        core.choose("native")
        [choice] = index.choose_all(writes, caps)
    assert list(choice.terms) == ids
    assert list(choice.bands) == ids
