"""Connected-component clusters of duplicate pairs, by union-find (design §6).

Deterministic whatever order the pairs arrive in: pairs are ranked by score descending then
ids, clusters by their best pair. Every pair of a component lands in exactly one cluster (the
greedy set-merging some libraries use is not transitive and can split a component).
"""

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class ScoredPair:
    """Two drawer ids, `a` < `b`, and their cosine similarity."""

    a: str
    b: str
    score: float

    @classmethod
    def of(cls, x: str, y: str, score: float) -> "ScoredPair":
        low, high = sorted((x, y))
        return cls(low, high, score)


@dataclass(frozen=True, slots=True)
class Cluster:
    """A connected component: its best pairs (all of them, or the first of them when a limit
    applies), how many drawers it joins and how many pairs it holds."""

    pairs: tuple[ScoredPair, ...]
    size: int
    total_pairs: int

    @property
    def members(self) -> frozenset[str]:
        """The drawers of the pairs listed (every member when no pair was left off)."""
        return frozenset(m for pair in self.pairs for m in (pair.a, pair.b))

    @classmethod
    def of(cls, pairs: tuple[ScoredPair, ...], limit: int | None = None) -> "Cluster":
        members = {m for pair in pairs for m in (pair.a, pair.b)}
        return cls(pairs[:limit], len(members), len(pairs))


class _UnionFind:
    def __init__(self) -> None:
        self._parent: dict[str, str] = {}

    def find(self, item: str) -> str:
        self._parent.setdefault(item, item)
        root = item
        while self._parent[root] != root:
            root = self._parent[root]
        while self._parent[item] != root:  # path compression
            self._parent[item], item = root, self._parent[item]
        return root

    def union(self, a: str, b: str) -> None:
        root_a, root_b = self.find(a), self.find(b)
        if root_a != root_b:
            # the smaller id becomes the root, so the structure does not depend on arrival order
            low, high = sorted((root_a, root_b))
            self._parent[high] = low


def _rank(pair: ScoredPair) -> tuple[float, str, str]:
    return (-pair.score, pair.a, pair.b)


def cluster_pairs(pairs: Iterable[ScoredPair], limit: int | None = None) -> list[Cluster]:
    """Clusters ordered by their best pair; pairs inside by score descending, then ids, the
    first `limit` of them kept (all when None)."""
    best: dict[tuple[str, str], ScoredPair] = {}
    for pair in pairs:  # a pair seen twice (from both ends of a k-NN search) keeps its best score
        seen = best.get((pair.a, pair.b))
        if seen is None or pair.score > seen.score:
            best[(pair.a, pair.b)] = pair
    unique = sorted(best.values(), key=_rank)
    forest = _UnionFind()
    for pair in unique:
        forest.union(pair.a, pair.b)
    groups: dict[str, list[ScoredPair]] = {}
    for pair in unique:  # already in rank order, so each group is too
        groups.setdefault(forest.find(pair.a), []).append(pair)
    clusters = (Cluster.of(tuple(g), limit) for g in groups.values())
    return sorted(clusters, key=lambda c: _rank(c.pairs[0]))
