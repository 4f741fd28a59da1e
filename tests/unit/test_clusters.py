"""Union-find clusters: transitive, disjoint, deterministic in any arrival order."""

import random

from castlegraph.resolver.clusters import ScoredPair, cluster_pairs


def test_a_chain_is_one_cluster_and_a_separate_pair_another() -> None:
    pairs = [
        ScoredPair.of("b", "a", 0.9),
        ScoredPair.of("c", "b", 0.95),
        ScoredPair.of("x", "y", 0.99),
    ]
    clusters = cluster_pairs(pairs)
    assert [c.size for c in clusters] == [2, 3]  # by best pair: 0.99 first
    assert [(p.a, p.b) for p in clusters[1].pairs] == [("b", "c"), ("a", "b")]
    assert clusters[0].members == {"x", "y"}


def test_pairs_are_canonical_and_deduplicated() -> None:
    assert ScoredPair.of("z", "a", 0.5) == ScoredPair("a", "z", 0.5)
    clusters = cluster_pairs([ScoredPair.of("a", "b", 0.9), ScoredPair.of("b", "a", 0.9)])
    assert len(clusters[0].pairs) == 1


def test_the_result_does_not_depend_on_arrival_order() -> None:
    rng = random.Random(3)
    ids = [f"d{i:02d}" for i in range(30)]
    pairs = [ScoredPair.of(*rng.sample(ids, 2), round(rng.uniform(0.85, 1), 3)) for _ in range(40)]
    expected = cluster_pairs(pairs)
    for _ in range(10):
        rng.shuffle(pairs)
        assert cluster_pairs(pairs) == expected
    members = [c.members for c in expected]
    assert sum(len(m) for m in members) == len(frozenset().union(*members))  # disjoint


def test_ties_are_broken_by_ids() -> None:
    clusters = cluster_pairs([ScoredPair.of("c", "d", 0.9), ScoredPair.of("a", "b", 0.9)])
    assert [c.pairs[0].a for c in clusters] == ["a", "c"]


def test_no_pairs_no_clusters() -> None:
    assert cluster_pairs([]) == []
