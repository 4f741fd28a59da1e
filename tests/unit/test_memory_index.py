"""The in-memory candidate index's own data structure (no database): blocks, segments, merges.

A dict from key to entity ids is the reference: whatever the entities, the order they arrive
in, the size of the blocks of rows and however the segments merge, a lookup answers each entity
that stores a probe once, with exactly the probes it stores.
"""

import uuid

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from graph.memory_index import MemoryIndex
from graph.memory_segments import BUCKET_BITS, KeyIndex, key_hashes

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
    """Entities arrive a few at a time (segments of their blocks, merged as they grow) or all
    at once as a build does (a block at a time); ids that are no UUID take the side dict; an
    entity added twice (respelled: its keys only grow) is answered once. Blocks of 2 to 8 rows
    put the rows of one batch in several."""
    index = KeyIndex(block_bits)
    entities: list[tuple[str, set[str]]] = []
    for n, (is_uuid, stored) in enumerate(rows):
        entity_id = str(uuid.uuid4()) if is_uuid else f"legacy-{n}"
        entities.append((entity_id, stored))
        if n % 3 == 0:  # respelled: added again with one more key
            again_id, again = entities[n // 2]
            entities.append((again_id, again | {"zz"}))
    if built:
        fill(index, entities, per_segment)
    else:
        for start in range(0, len(entities), per_segment):
            index.add(entities[start : start + per_segment])
    assert index.lookup(probes) == reference(entities, probes)
    assert index.lookup(probes | {"zz"}) == reference(entities, probes | {"zz"})


def fill(index: KeyIndex, entities: list[tuple[str, set[str]]], per_page: int) -> None:
    """What `MemoryIndex.build` does: pages of rows into one `Filler`."""
    filler = index.filler()
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


def test_a_build_makes_one_segment_per_block_of_four_bytes_a_key() -> None:
    """20,000 entities of 48 keys (the benchmark's names hold about that many): blocks of 4,096
    rows, each one segment of 4 bytes per key and its bucket table, and no merge on the way."""
    index = KeyIndex(block_bits=12)
    entities = [(str(uuid.uuid4()), {f"{n}:{k}" for k in range(48)}) for n in range(20_000)]
    fill(index, entities, 2_000)
    assert [len(s.entries) for s in index.segments] == [4_096 * 48] * 4 + [3_616 * 48]
    table = ((1 << BUCKET_BITS) + 1) * 4
    assert [s.nbytes for s in index.segments] == [
        len(s.entries) * 4 + table for s in index.segments
    ]
    assert index.nbytes == sum(s.nbytes for s in index.segments) + 16 * 20_000
    assert index.lookup({"7:3", "19999:47", "nothing"}) == {
        entities[7][0]: ["7:3"],
        entities[19_999][0]: ["19999:47"],
    }


def test_an_index_is_not_used_before_it_is_built() -> None:
    index = MemoryIndex()
    assert not index.ready
    index.written("epoch", 1, [])  # ignored: nothing to add to before the build
    assert index.seen == 0
