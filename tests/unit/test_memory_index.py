"""The in-memory candidate index's own data structure (no database): blocks, segments, merges.

A dict from key to entity ids is the reference: whatever the entities, the order they arrive
in, the size of the blocks of rows and however the segments merge, a lookup answers each entity
that stores a probe once, with exactly the probes it stores.
"""

import uuid

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castlegraph.graph.indexes import key_segments, row_spellings
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.graph.indexes.key_segments import (
    BLOCK_BITS,
    HASH_BITS,
    Geometry,
    KeyIndex,
    Segment,
    key_hashes,
)
from castlegraph.graph.indexes.row_spellings import SEPARATOR, Record, RowSpellings
from castlegraph.graph.records import Entity
from castlegraph.resolver import core as chosen_core
from castlegraph.resolver import entity_hits
from castlegraph.resolver.entity_model import EntityView

keys = st.text(alphabet="abc é", min_size=1, max_size=4)
entity = st.tuples(st.booleans(), st.sets(keys, min_size=1, max_size=6))


def reference(entities: list[tuple[str, set[str]]], probes: set[str]) -> dict[str, list[str]]:
    found: dict[str, set[str]] = {}
    for entity_id, stored in entities:
        if stored & probes:
            found.setdefault(entity_id, set()).update(stored & probes)
    return {entity_id: sorted(matched) for entity_id, matched in found.items()}


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(entity, max_size=40),
    probes=st.sets(keys, max_size=12),
    per_segment=st.integers(1, 8),
    block_bits=st.sampled_from([1, 2, 3, 16]),
    built=st.booleans(),
)
def test_a_lookup_answers_what_a_dict_of_the_keys_answers(
    rows: list[tuple[bool, set[str]]],
    probes: set[str],
    per_segment: int,
    block_bits: int,
    built: bool,
) -> None:
    """Entities arrive a few at a time (a segment each, merged as they grow) or all at once as
    a build does (blocks of rows, then parts by bucket range; blocks of 2 to 8 rows put one
    page in several); ids that are no UUID take the side dict; an entity added twice
    (respelled: its keys only grow) is answered once."""
    index = KeyIndex()
    entities: list[tuple[str, set[str]]] = []
    for n, (is_uuid, stored) in enumerate(rows):
        entity_id = str(uuid.uuid4()) if is_uuid else f"legacy-{n}"
        entities.append((entity_id, stored))
        if n % 3 == 0:  # respelled: added again with one more key
            again_id, again = entities[n // 2]
            entities.append((again_id, again | {"zz"}))
    if built:
        fill(index, entities, per_segment, block_bits)
    else:
        for start in range(0, len(entities), per_segment):
            index.add(entities[start : start + per_segment])
    assert index.lookup(probes) == reference(entities, probes)
    assert index.lookup(probes | {"zz"}) == reference(entities, probes | {"zz"})


def fill(
    index: KeyIndex, entities: list[tuple[str, set[str]]], per_page: int, block_bits: int = 16
) -> None:
    """What `EntityIndex.build` does: pages of rows into one `Filler`."""
    filler = index.filler(block_bits)
    for start in range(0, len(entities), per_page):
        page = entities[start : start + per_page]
        first = index.rows
        for entity_id, _ in page:
            index.row_for(entity_id)
        counts = [len(stored) for _, stored in page]
        hashes = key_hashes([key for _, stored in page for key in stored])
        filler.append(hashes, np.repeat(np.arange(first, index.rows), counts))
    filler.close()


def test_segments_merge_while_the_newer_is_not_much_the_smaller() -> None:
    index = KeyIndex()
    for n in range(100):
        index.add([(str(uuid.uuid4()), {f"k{n}"})])
    sizes = [len(segment.entries) for segment in index.segments]
    assert sum(sizes) == 100 and len(sizes) <= 7 and sizes == sorted(sizes, reverse=True)


@pytest.mark.parametrize("chunk", [1, 3, 1 << 16])
def test_a_merge_is_the_segment_its_pairs_make(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    """Two segments merged (their pairs a few buckets at a time, sorted as two runs) hold the
    very entries and bucket offsets one segment made of all their pairs at once holds."""
    monkeypatch.setattr(key_segments, "PAIRS_CHUNK_BUCKETS", chunk)
    rng = np.random.default_rng(7)
    hashes = rng.integers(0, 2**63, 3_000, dtype=np.int64).astype(np.uint64) << np.uint64(1)
    rows = np.concatenate((rng.integers(0, 300, 2_000), rng.integers(300, 400, 1_000)))
    older = Segment.of(hashes[:2_000].copy(), rows[:2_000], Geometry.for_rows(2_000, 0, 300))
    newer_rows = rows[2_000:] - 300
    newer = Segment.of(hashes[2_000:].copy(), newer_rows, Geometry.for_rows(1_000, 300, 100))
    merged = key_segments._merged(older, newer, 400)
    known = min(older.geometry.hash_bits, newer.geometry.hash_bits)
    whole = Segment.of(hashes.copy(), rows, Geometry.for_rows(3_000, 0, 400, known))
    assert merged.geometry == whole.geometry
    assert np.array_equal(merged.offsets, whole.offsets)
    assert np.array_equal(merged.entries, whole.entries)


def bucket_read_whole(segment: Segment, hashes: np.ndarray) -> list[tuple[int, int]]:
    """(probe, row) of each entry of each probe's bucket that has the probe's tag, read one by
    one: what `Segment.find` answers by binary search."""
    g = segment.geometry
    found = []
    for probe, value in enumerate(hashes.tolist()):
        bucket = (value >> (64 - g.bucket_bits)) - segment.first
        if not 0 <= bucket < len(segment.offsets) - 1:
            continue
        tag = (value >> (64 - g.hash_bits)) & ((1 << g.tag_bits) - 1)
        for entry in segment.entries[segment.offsets[bucket] : segment.offsets[bucket + 1]]:
            if int(entry) >> g.row_bits == tag:
                found.append((probe, (int(entry) & ((1 << g.row_bits) - 1)) + g.base))
    return found


def test_a_builds_buffer_takes_eight_bytes_a_pair_and_is_freed_at_close() -> None:
    """One sortable uint64 per pair (bucket | tag | row), not a hash and a row apiece: the
    build's peak above the index is 32 MB for a block of 65,536 rows, not 48."""
    index = KeyIndex()
    filler = index.filler()
    assert filler.nbytes == 8 * (64 << BLOCK_BITS) == 32 * 1024 * 1024
    for n in range(3):
        index.row_for(str(uuid.UUID(int=n)))
        filler.append(key_hashes([f"key {n}", "shared"]), np.full(2, n))
    filler.close()
    assert filler.nbytes == 0
    assert sorted(index.lookup(["shared", "key 1"]).items()) == [
        (str(uuid.UUID(int=0)), ["shared"]),
        (str(uuid.UUID(int=1)), ["key 1", "shared"]),
        (str(uuid.UUID(int=2)), ["shared"]),
    ]


@pytest.mark.parametrize("block_bits", [2, 16])
def test_a_segment_finds_what_reading_each_bucket_whole_finds(block_bits: int) -> None:
    """Keys a hundred rows store, keys one row stores, keys none stores; in built parts (each
    over a range of buckets) and in segments added after: every pair once, by probe, then row."""
    index = KeyIndex()
    filler = index.filler(block_bits)
    stored = [[f"hot {n % 3}", f"warm {n % 40}", f"own {n}"] for n in range(300)]
    for n, keys in enumerate(stored):
        index.row_for(str(uuid.UUID(int=n)))
        filler.append(key_hashes(keys), np.full(len(keys), n))
    filler.close()
    added = [[f"hot {n % 3}", f"new {n}"] for n in range(300, 340)]
    index.add([(str(uuid.UUID(int=n)), keys) for n, keys in enumerate(added, start=300)])
    probes = ["hot 0", "hot 2", *(f"warm {k}" for k in range(0, 50, 3)), "own 5", "new 301"]
    hashes = np.sort(key_hashes([*probes, "absent", "nowhere"]))
    for segment in index.segments:
        found, rows = segment.find(hashes)
        assert list(zip(found.tolist(), rows.tolist(), strict=True)) == bucket_read_whole(
            segment, hashes
        )
    found, rows = index.hits(probes)
    assert sorted(zip(rows.tolist(), found.tolist(), strict=True)) == [
        (row, probe)
        for row, keys in enumerate([*stored, *added])
        for probe, key in enumerate(probes)
        if key in keys
    ]
    assert len(rows) == 334  # 114 and 113 rows of the two hot keys among them


@pytest.mark.parametrize("most", [1, 3, 32])
def test_the_newest_hits_are_the_last_rows_each_segment_holds_of_a_probe(most: int) -> None:
    """`newest_hits` finds what `hits` finds, cut to each probe's `most` highest rows per
    segment, and names the probes it cut: keys as common as a whole room's, rare ones, absent
    ones, in segments built and grown."""
    rng = np.random.default_rng(most)
    index = KeyIndex()
    common = [f"common {k}" for k in range(6)]
    for start in range(0, 600, 150):  # four segments, later rows in later ones
        index.add(
            [
                (
                    str(uuid.UUID(int=n)),
                    [*rng.choice(common, 3, replace=False), f"rare {n % 40}", f"own {n}"],
                )
                for n in range(start, start + 150)
            ]
        )
    probes = [*common, *(f"rare {k}" for k in range(45)), "own 7", "absent", "common 2"]
    whole_found, whole_rows = index.hits(probes)
    found, rows, cut = index.newest_hits(probes, most)
    per_segment: list[dict[int, list[int]]] = []
    start = 0
    for segment in index.segments:  # `hits` gives the segments' pairs one after another
        segment_pairs = segment.find(np.sort(key_hashes(probes)))[0]
        end = start + len(segment_pairs)
        rows_of: dict[int, list[int]] = {}
        for probe, row in zip(whole_found[start:end], whole_rows[start:end], strict=True):
            rows_of.setdefault(int(probe), []).append(int(row))
        per_segment.append(rows_of)
        start = end
    expected = sorted(
        (probe, row)
        for rows_of in per_segment
        for probe, probe_rows in rows_of.items()
        for row in sorted(probe_rows)[-most:]
    )
    assert sorted(zip(found.tolist(), rows.tolist(), strict=True)) == expected
    assert cut.tolist() == sorted(
        {probe for rows_of in per_segment for probe, r in rows_of.items() if len(r) > most}
    )
    assert len(index.segments) > 1 and len(cut) >= 7  # the six common keys, twice one of them


def test_an_index_grown_one_row_at_a_time_keeps_every_hash_bit() -> None:
    """The drawer index of a service that started on an empty room grows by one segment per
    write: each, and each merge, keeps `HASH_BITS` of a key's hash, so a probe stored nowhere
    finds next to no row (entries / 2**34), where 17 bits of row in every entry left a write's
    segment 19 bits and a probe found one row in 2**19 / entries."""
    index = KeyIndex()
    for n in range(5_000):
        index.add([(str(uuid.UUID(int=n)), [f"{n}:{k}" for k in range(145)])])
    assert {segment.geometry.hash_bits for segment in index.segments} == {HASH_BITS}
    _, rows = index.hits([f"absent {n}" for n in range(20_000)])
    assert len(rows) < 10  # 20,000 * 725,000 / 2**34 = 0.84 expected; 1,730 with 23 bits
    assert index.lookup({"42:7", "4999:144"}) == {
        str(uuid.UUID(int=42)): ["42:7"],
        str(uuid.UUID(int=4999)): ["4999:144"],
    }


def test_a_build_holds_four_bytes_a_key_and_merges_nothing() -> None:
    """100,000 entities of 48 keys (the benchmark's names hold about that many): the build's
    parts hold 4 bytes a key and a bucket table of 8 to 16 entries a bucket, and cover the
    buckets once; later batches add segments of their own."""
    index = KeyIndex()
    entities = [(str(uuid.uuid4()), {f"{n}:{k}" for k in range(48)}) for n in range(100_000)]
    fill(index, entities, 2_000)
    parts = list(index.segments)
    entries = 100_000 * 48
    assert [s.first for s in parts] == [n * len(parts[0].offsets[1:]) for n in range(len(parts))]
    buckets = sum(len(s.offsets) - 1 for s in parts)
    assert parts[-1].last == buckets - 1 and 8 <= entries / buckets < 16
    assert sum(s.entries.nbytes for s in parts) == 4 * entries
    assert index.nbytes == sum(s.nbytes for s in parts) + 16 * 100_000
    assert index.nbytes / entries < 4.8
    later = [(str(uuid.uuid4()), {"7:3", "new"})]
    index.add(later)
    assert len(index.segments) == len(parts) + 1
    assert index.lookup({"7:3", "99999:47", "nothing", "new"}) == {
        entities[7][0]: ["7:3"],
        entities[99_999][0]: ["99999:47"],
        later[0][0]: ["7:3", "new"],
    }


def test_an_index_is_not_used_before_it_is_built() -> None:
    index = EntityIndex()
    assert not index.ready
    index.written("epoch", 1, [])  # ignored: nothing to add to before the build
    assert index.seen == 0


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.lists(st.text(alphabet="ab \x1fé", max_size=5), min_size=1, max_size=3)))
def test_each_row_keeps_its_spellings_or_says_it_does_not_know_them(
    rows: list[list[str]],
) -> None:
    """A row is its keys, in order; one whose keys hold the separator (or are all empty) is
    unknown, and every hit on it is read."""
    spellings = RowSpellings()
    spellings.extend(rows)
    assert len(spellings) == len(rows)
    for row, keys in enumerate(rows):
        known = not any(SEPARATOR in key for key in keys) and SEPARATOR.join(keys) != ""
        assert spellings.of(row) == (tuple(keys) if known else None)


def test_row_ends_take_four_bytes_until_the_blob_outgrows_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """4 bytes a row for where its text ends (4 MB at a million entities, not 8); past
    `NARROW_ENDS_MAX` bytes of text the ends widen to 8, every row still read back whole."""
    monkeypatch.setattr(row_spellings, "NARROW_ENDS_MAX", 40)
    spellings = RowSpellings()
    rows = [(f"key {n}", f"alias {n}") for n in range(8)]
    spellings.extend(rows[:2])
    per_row = 4 + 4 + 8  # end, kind code, creation time
    assert spellings.nbytes == len(spellings._blob) + per_row * 2
    spellings.extend(rows[2:])
    assert spellings.nbytes == len(spellings._blob) + (per_row + 4) * 8
    assert [spellings.of(row) for row in range(8)] == rows


def test_a_lookup_says_each_entitys_latest_row() -> None:
    """A respelled entity is added again under a new row with all its keys: that row's
    spellings are the ones its hits are weighed against."""
    index = EntityIndex()
    keys = KeyIndex()
    first, second = str(uuid.uuid4()), str(uuid.uuid4())
    keys.add([(first, {"ab", "a"}), (second, {"ab"})])
    keys.add([(first, {"ab", "a", "cd"})])
    answered = keys.lookup_rows({"ab", "cd"})
    found = {i: (sorted(probes), row) for i, (probes, row) in answered.items()}
    assert found == {first: (["ab", "cd"], 2), second: (["ab"], 1)}
    assert index.lookup_spelled({"ab": {"ab"}}) == ({}, {})  # not built: nothing indexed


def test_each_row_keeps_its_kind_however_many_or_says_it_does_not_know_it() -> None:
    """Every kind gets a code (a byte held 255, and the rest were unknown: read by every
    lookup, a key bomb's way around the kind filter)."""
    spellings = RowSpellings()
    spellings.extend([("ada",), ("rust", "rustlang")], ["person", "tool"])
    spellings.append(("x",))  # no kind given: unknown
    spellings.extend([(f"k{n}",) for n in range(300)], [f"kind{n}" for n in range(300)])
    assert [spellings.kind_of(row) for row in range(3)] == ["person", "tool", None]
    kinds = [spellings.kind_of(row) for row in range(3, 303)]
    assert kinds == [f"kind{n}" for n in range(300)]
    codes = spellings.kind_codes(np.arange(303, dtype=np.int64)).tolist()
    assert codes[:3] == [1, 2, 0] and codes[3:] == list(range(3, 303))
    assert spellings.code_of("kind299") == 302 and spellings.code_of("nothing") is None
    assert spellings.of(1) == ("rust", "rustlang")


texts = st.text(alphabet="ab \x1f\x1eé", min_size=1, max_size=4)
records = st.tuples(
    st.lists(texts, min_size=1, max_size=3),
    st.sampled_from(["tool", "person", None]),
    st.one_of(
        st.none(),
        st.builds(
            Record,
            texts,
            st.lists(texts, max_size=2).map(tuple),
            st.one_of(
                st.none(),
                st.just(""),
                st.just("1999-01-02T03:04:05.000006Z"),
                st.just("2026-12-01T23:10:11.123456+00:00"),
                st.just("0042-01-01T00:00:00.000000Z"),
            ),
            st.one_of(st.none(), texts),
        ),
    ),
)


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(records, max_size=12))
def test_each_row_keeps_its_entity_or_says_it_does_not(
    rows: list[tuple[list[str], str | None, Record | None]],
) -> None:
    """A row keeps its whole entity when its keys, name, aliases and settlement hold no
    separator and its kind is known; its creation time comes back byte for byte, whatever
    its form (an int64 when it prints back the same, else kept aside)."""
    spellings = RowSpellings()
    spellings.extend([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])
    for row, (keys, kind, record) in enumerate(rows):
        texts_held = [*keys]
        if record is not None:
            texts_held += [record.name, *record.aliases, *filter(None, [record.same_as])]
        known = (
            record is not None
            and kind is not None
            and not any("\x1f" in t or "\x1e" in t for t in texts_held)
        )
        entity = spellings.entity(row, f"id{row}")
        if not known:
            assert entity is None
            continue
        assert record is not None and kind is not None
        view = EntityView(f"id{row}", record.name, kind, keys[0], record.aliases, tuple(keys[1:]))
        assert entity == Entity(view, record.created_at, record.same_as)  # type: ignore[arg-type]
        assert spellings.of(row) == tuple(keys)


def test_pairs_are_weighed_against_every_key_of_a_row_and_kept_where_a_side_is_unknown() -> None:
    """The bulk pair filter (`may_use`, the chosen core's and its Python twin): a row's first
    key in bulk, its aliases after, and a sender or a row whose keys are not known always kept."""
    senders = ["kubernetes", None, "ada lovelace"]
    row_keys = [("kubernets",), ("zzzzzz",), None, ("postgres", "kubernetis"), ("lovelace ada",)]
    pairs = [(0, 0), (0, 1), (1, 1), (0, 2), (0, 3), (2, 3), (2, 0), (2, 4)]
    pair_probe = np.array([p for p, _ in pairs], dtype=np.intp)
    pair_row = np.array([r for _, r in pairs], dtype=np.intp)
    for may_use in (chosen_core.may_use, entity_hits.may_use):
        kept = may_use(senders, row_keys, pair_probe, pair_row)
        assert kept.tolist() == [True, False, True, True, True, False, False, True]
