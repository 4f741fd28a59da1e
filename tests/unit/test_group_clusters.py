"""Clusters from vector groups equal clusters from every drawer pair (design §6)."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from castlegraph.resolver.clusters import ScoredPair, cluster_pairs
from castlegraph.resolver.group_clusters import (
    GroupPair,
    checked_pairs_inside,
    group_clusters,
    pair_count,
)

SCORES = (0.9, 0.95, 0.99)


@st.composite
def palaces(draw: st.DrawFn) -> tuple[dict[str, list[str]], list[GroupPair], set[tuple[str, str]]]:
    sizes = draw(st.lists(st.integers(1, 5), min_size=1, max_size=6))
    members = {f"g{g}": [f"d{g}-{i}" for i in range(size)] for g, size in enumerate(sizes)}
    groups = sorted(members)
    chosen = draw(st.sets(st.tuples(st.sampled_from(groups), st.sampled_from(groups))))
    pairs = [GroupPair(g, h, draw(st.sampled_from(SCORES))) for g, h in sorted(chosen) if g < h]
    drawers = sorted(d for ids in members.values() for d in ids)
    judged = draw(st.sets(st.tuples(st.sampled_from(drawers), st.sampled_from(drawers))))
    return members, pairs, {(min(a, b), max(a, b)) for a, b in judged if a != b}


def every_pair(
    members: dict[str, list[str]], pairs: list[GroupPair], checked: set[tuple[str, str]]
) -> list[ScoredPair]:
    found = [
        ScoredPair.of(a, b, 1.0)
        for ids in members.values()
        for a, b in itertools.combinations(ids, 2)
    ]
    for pair in pairs:
        found += [ScoredPair.of(a, b, pair.score) for a in members[pair.g] for b in members[pair.h]]
    return [p for p in found if (p.a, p.b) not in checked]


@settings(max_examples=300, deadline=None)
@given(palace=palaces(), limit=st.integers(1, 6))
def test_group_clusters_equal_clusters_of_every_pair(
    palace: tuple[dict[str, list[str]], list[GroupPair], set[tuple[str, str]]], limit: int
) -> None:
    members, pairs, checked = palace
    expected = cluster_pairs(every_pair(members, pairs, checked), limit)
    assert group_clusters(members, pairs, checked, limit) == expected
    group_of = {d: g for g, ids in members.items() for d in ids}
    counts = {g: len(ids) for g, ids in members.items()}
    inside = checked_pairs_inside(checked, group_of, pairs)
    assert pair_count(counts, pairs, inside) == len(every_pair(members, pairs, checked))
