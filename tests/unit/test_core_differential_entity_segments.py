"""The compiled core's segment search (`castlegraph._core`) against the numpy code it replaces.

Every function the core took over runs through both implementations on the same segments and
probes, and must answer the same arrays: segments of every geometry a build, a write or a merge
makes (bucket bits from 0, tags cut short, rows of 1 to 20 bits), probes that hit, miss, share a
bucket or fall outside a part's bucket range. Through a whole `KeyIndex`, keys of every kind of
text (accents, digits, CJK, emoji, very long, empty) are looked up with either core bound.
Skipped where the core is not built.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from castlegraph.graph.indexes.key_segments import (
    HASH_BITS,
    Geometry,
    KeyIndex,
    Segment,
    key_hashes,
    native_find,
    native_spans,
    python_find,
    python_key_hashes,
    python_spans,
)
from castlegraph.resolver import core as chosen_core

core = chosen_core.native_module()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")

hash_values = st.integers(0, (1 << 64) - 1)


@st.composite
def segments_and_probes(draw: st.DrawFn) -> tuple[Segment, NDArray[np.uint64]]:
    """A segment over all its buckets or a part of them, and sorted probes: some the stored
    hashes themselves, some their neighbours, some anything."""
    stored = draw(st.lists(hash_values, max_size=300))
    rows = draw(st.integers(1, 1 << 20))
    row_of = draw(st.lists(st.integers(0, rows - 1), min_size=len(stored), max_size=len(stored)))
    base = draw(st.integers(0, 1 << 20))
    hash_bits = draw(st.integers(8, HASH_BITS))
    geometry = Geometry.for_rows(len(stored), base, rows, hash_bits)
    bucket_count = 1 << geometry.bucket_bits
    first = draw(st.integers(0, bucket_count - 1))
    last = draw(st.integers(first, bucket_count - 1))
    hashes = np.array(stored, dtype=np.uint64)
    shift = 64 - geometry.bucket_bits
    buckets = (hashes >> np.uint64(shift)) if geometry.bucket_bits else np.zeros_like(hashes)
    inside = (buckets >= first) & (buckets <= last)
    segment = Segment.of(
        hashes[inside].copy(), np.array(row_of, dtype=np.int64)[inside], geometry, first, last
    )
    near = [(h + d) % (1 << 64) for h in stored for d in draw(st.sets(st.integers(-2, 2)))]
    probes = draw(st.lists(st.sampled_from(stored), max_size=50)) if stored else []
    probes += near[:100] + draw(st.lists(hash_values, max_size=50))
    return segment, np.sort(np.array(probes, dtype=np.uint64))


def _same(a: tuple[object, ...], b: tuple[object, ...]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        if isinstance(x, np.ndarray):
            assert isinstance(y, np.ndarray)
            assert x.dtype == y.dtype
            assert x.tolist() == y.tolist()
        else:
            assert x == y


@settings(max_examples=400, deadline=None)
@given(case=segments_and_probes(), ends_of_all=st.booleans())
def test_spans_are_the_same(case: tuple[Segment, NDArray[np.uint64]], ends_of_all: bool) -> None:
    segment, probes = case
    _same(
        native_spans(segment, probes, ends_of_all=ends_of_all),
        python_spans(segment, probes, ends_of_all=ends_of_all),
    )


@settings(max_examples=400, deadline=None)
@given(case=segments_and_probes())
def test_find_is_the_same(case: tuple[Segment, NDArray[np.uint64]]) -> None:
    segment, probes = case
    found, spans = native_find(segment, probes)
    assert found is not None
    assert spans is None
    _same(found, python_find(segment, probes))


@st.composite
def segments_with_runs(draw: st.DrawFn) -> tuple[Segment, NDArray[np.uint64]]:
    """A segment where a few hashes are stored by 32 to 80 rows each (long runs, kept by kind),
    and probes that meet them or not."""
    shared = draw(st.lists(hash_values, min_size=1, max_size=3))
    stored = [h for h in shared for _ in range(draw(st.integers(32, 80)))]
    stored += draw(st.lists(hash_values, max_size=200))
    rows = len(stored)
    geometry = Geometry.for_rows(rows, 0, rows)
    segment = Segment.of(
        np.array(stored, dtype=np.uint64), np.arange(rows, dtype=np.int64), geometry
    )
    codes = draw(st.integers(1, 4))
    segment = segment.with_kind_runs(lambda r: (r % codes).astype(np.uint32))
    probes = draw(st.lists(st.sampled_from(stored), max_size=30))
    probes += draw(st.lists(hash_values, max_size=30))
    return segment, np.sort(np.array(probes, dtype=np.uint64))


@settings(max_examples=300, deadline=None)
@given(case=segments_with_runs())
def test_find_leaves_the_probes_that_meet_a_long_run_to_the_kinds(
    case: tuple[Segment, NDArray[np.uint64]],
) -> None:
    """Given the long runs, the core answers the hits where no probe meets one (numpy's
    `run_at` says which do), as numpy does, and the spans where one does."""
    segment, probes = case
    runs = segment.kind_runs
    assert runs is not None
    reference = python_spans(segment, probes, ends_of_all=False)
    found, spans = native_find(segment, probes, runs)
    if (runs.run_at(reference[2]) >= 0).any():
        assert found is None
        assert spans is not None
        _same(spans, reference)
    else:
        assert found is not None
        assert spans is None
        _same(found, python_find(segment, probes))


def test_a_probe_of_a_stored_hash_finds_its_row() -> None:
    """A fixed case, so a failure of the generated ones has a plain neighbour to read."""
    hashes = np.array([1 << 63, 5, 1 << 40], dtype=np.uint64)
    geometry = Geometry.for_rows(3, 100, 3)
    segment = Segment.of(hashes.copy(), np.array([0, 1, 2]), geometry)
    found, _ = native_find(segment, np.sort(hashes))
    assert found is not None
    positions, rows = found
    assert sorted(rows.tolist()) == [100, 101, 102]
    assert sorted(positions.tolist()) == [0, 1, 2]


def test_a_bad_buffer_is_a_clear_error() -> None:
    geometry = Geometry.for_rows(1, 0, 1)
    segment = Segment.of(np.array([7], dtype=np.uint64), np.array([0]), geometry)
    with pytest.raises(ValueError, match="hashes"):
        native_find(segment, np.array([7.0]))


def _broken_bucket() -> tuple[Segment, int]:
    """A segment of 4 buckets with one entry each, bucket 2's end offset past the entries;
    and a hash in bucket 0."""
    geometry = Geometry.fitting(2, 4)
    hashes = np.array([n << 62 for n in range(4)], dtype=np.uint64)
    segment = Segment.of(hashes, np.arange(4), geometry)
    segment.offsets[3] = 99
    return segment, 0


def test_offsets_past_the_entries_are_an_error_where_a_probe_reads_them() -> None:
    segment, _ = _broken_bucket()
    with pytest.raises(ValueError, match="offset"):
        native_spans(segment, np.array([2 << 62], dtype=np.uint64), ends_of_all=True)


def test_the_offsets_of_buckets_no_probe_reads_are_not_walked() -> None:
    """A lookup reads the offsets of its probes' buckets only: checking every offset of a
    segment of 2**21 buckets per call cost a drawer write ~0.4 ms at 100 k drawers."""
    segment, in_first = _broken_bucket()
    lo, probes, first, past = native_spans(
        segment, np.array([in_first], dtype=np.uint64), ends_of_all=True
    )
    assert (lo, probes.tolist(), first.tolist(), past.tolist()) == (0, [0], [0], [1])


texts = st.one_of(
    st.text(max_size=12),
    st.text(alphabet="aeéèëoöøñç0123456789 ", max_size=20),
    st.text(alphabet="東京大学北京🙂👍🏽ß", max_size=8),
    st.text(alphabet="ab", min_size=200, max_size=400),
    st.just(""),
)


@settings(max_examples=150, deadline=None)
@given(
    stored=st.lists(st.sets(texts, min_size=1, max_size=5), max_size=30),
    probes=st.sets(texts, max_size=20),
    per_segment=st.integers(1, 10),
)
def test_a_key_index_answers_the_same_on_either_core(
    stored: list[set[str]], probes: set[str], per_segment: int
) -> None:
    """Keys are hashed in Python; either core then answers the same ids and probes."""
    index = KeyIndex()
    for start in range(0, len(stored), per_segment):
        chunk = stored[start : start + per_segment]
        index.add([(f"e{start + n}", keys) for n, keys in enumerate(chunk)])
    every = probes | {key for keys in stored for key in keys}
    saved = chosen_core.segments
    try:
        chosen_core.segments = core
        with_core = index.lookup(every)
        chosen_core.segments = None
        without = index.lookup(every)
    finally:
        chosen_core.segments = saved
    assert with_core == without
    assert all(f"e{n}" in with_core for n in range(len(stored)))


@settings(max_examples=200, deadline=None)
@given(keys=st.lists(texts, max_size=60))
def test_keys_hash_the_same_on_either_core(keys: list[str]) -> None:
    """Python's own hash of each key, as numpy takes it and as the core does, from a list or a
    set; writable, as a build sorts its hashes in place."""
    saved = chosen_core.segments
    try:
        chosen_core.segments = core
        native = key_hashes(keys)
        of_set = key_hashes(list(set(keys)))
    finally:
        chosen_core.segments = saved
    assert native.dtype == np.uint64
    assert native.flags.writeable
    assert native.tolist() == python_key_hashes(keys).tolist()
    assert of_set.tolist() == python_key_hashes(list(set(keys))).tolist()


@settings(max_examples=150, deadline=None)
@given(
    ids=st.lists(
        st.one_of(st.uuids().map(str), st.text(max_size=12)), min_size=1, max_size=40, unique=True
    ),
    data=st.data(),
)
def test_ids_are_written_the_same_on_either_core(ids: list[str], data: st.DataObject) -> None:
    """A row's id as the index holds it, a UUID as 16 bytes or any other id as its text, is
    read back as it was given by `ids_of` (under the index's lock), by `ids_unlocked` and by
    the numpy twin, for any rows asked, repeated and out of order."""
    index = KeyIndex()
    index.add([(entity_id, {f"k{n}"}) for n, entity_id in enumerate(ids)])
    rows = data.draw(st.lists(st.integers(0, len(ids) - 1), max_size=60))
    given = [ids[row] for row in rows]
    saved = chosen_core.segments
    try:
        chosen_core.segments = core
        assert index.ids_of(rows) == given
        assert index.ids_unlocked(rows) == given
        chosen_core.segments = None
        assert index.ids_of(rows) == given
        assert index.ids_unlocked(rows) == given
    finally:
        chosen_core.segments = saved
    assert index.python_ids_of(rows) == given


def test_a_row_past_the_ids_is_refused_by_the_core() -> None:
    assert core is not None
    with pytest.raises(ValueError, match="row 2 is past the ids"):
        core.uuid_texts(bytes(32), [0, 2])
    with pytest.raises(ValueError, match="row -1 is past the ids"):
        core.uuid_texts(bytes(32), [-1])
    assert core.uuid_texts(bytes(32), [1]) == ["00000000-0000-0000-0000-000000000000"]
