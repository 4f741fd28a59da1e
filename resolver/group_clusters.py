"""Clusters of duplicate pairs when identical vectors are kept as one group (design §6).

A pair is two drawers of one group (score 1.0), or of groups g and h when (g, h) reaches the
threshold; a pair with a verdict does not exist. The clusters are those `resolver.clusters`
would find from every pair, found without listing the pairs (a thousand copies of one vector
are half a million): the cost follows members, group pairs and verdicts, never drawer pairs.
"""

import bisect
import heapq
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from castlegraph.resolver.clusters import Cluster, ScoredPair

SAME_VECTOR = 1.0
"""The score of two drawers holding one vector."""


@dataclass(frozen=True, slots=True)
class GroupPair:
    """Two groups (vector hashes) whose vectors' cosine reaches the threshold."""

    g: str
    h: str
    score: float


def group_clusters(
    members: Mapping[str, Sequence[str]],
    pairs: Sequence[GroupPair],
    checked: set[tuple[str, str]],
    limit: int,
) -> list[Cluster]:
    """Clusters of the drawers in `members` (group -> drawer ids in scope). `checked` holds
    the pairs with a verdict as (smaller id, larger id). Groups absent from `members` have no
    drawer in scope and are ignored. Each cluster lists its best `limit` pairs (score
    descending, then ids) and reports its full size and how many pairs it holds."""
    neighbours: dict[str, list[tuple[str, float]]] = {}
    for pair in pairs:
        if members.get(pair.g) and members.get(pair.h) and pair.g != pair.h:
            neighbours.setdefault(pair.g, []).append((pair.h, pair.score))
            neighbours.setdefault(pair.h, []).append((pair.g, pair.score))
    group_of = {drawer: group for group, ids in members.items() for drawer in ids}
    component = _components(members, neighbours, group_of, checked)
    in_component: dict[int, dict[str, list[str]]] = {}
    for drawer, number in component.items():
        in_component.setdefault(number, {}).setdefault(group_of[drawer], []).append(drawer)
    judged: dict[int, int] = {}  # verdicts on pairs of each component's blocks
    for a, _ in _checked_inside(checked, component, group_of, neighbours):
        judged[component[a]] = judged.get(component[a], 0) + 1
    clusters = []
    for number, groups in in_component.items():
        size = sum(len(ids) for ids in groups.values())
        if size < 2:
            continue
        for ids in groups.values():
            ids.sort()
        blocks = _blocks(groups, neighbours)
        total = sum(_block_size(groups, block) for block in blocks) - judged.get(number, 0)
        if total < 1:
            continue
        best = _best_pairs(groups, blocks, checked, limit)
        clusters.append(Cluster(tuple(best), size=size, total_pairs=total))
    return sorted(clusters, key=lambda c: (-c.pairs[0].score, c.pairs[0].a, c.pairs[0].b))


def pair_count(counts: Mapping[str, int], pairs: Sequence[GroupPair], checked_inside: int) -> int:
    """How many drawer pairs the groups hold, without listing them: n(n-1)/2 in a group of n,
    n·m between paired groups of n and m, less the `checked_inside` pairs with a verdict."""
    within = sum(n * (n - 1) // 2 for n in counts.values())
    between = sum(counts.get(p.g, 0) * counts.get(p.h, 0) for p in pairs if p.g != p.h)
    return within + between - checked_inside


def checked_pairs_inside(
    checked: set[tuple[str, str]],
    group_of: Mapping[str, str],
    pairs: Sequence[GroupPair],
) -> int:
    """How many pairs with a verdict are pairs of the groups: both drawers in scope, in one
    group or in two paired groups (what `pair_count` must leave out)."""
    paired = {(p.g, p.h) for p in pairs} | {(p.h, p.g) for p in pairs}
    return sum(
        1
        for a, b in checked
        if a in group_of
        and b in group_of
        and (group_of[a] == group_of[b] or (group_of[a], group_of[b]) in paired)
    )


def _checked_inside(
    checked: set[tuple[str, str]],
    component: Mapping[str, int],
    group_of: Mapping[str, str],
    neighbours: Mapping[str, list[tuple[str, float]]],
) -> set[tuple[str, str]]:
    """The verdicts on pairs of one component's blocks."""
    return {
        (a, b)
        for a, b in checked
        if a in component
        and component[a] == component.get(b)
        and (
            group_of[a] == group_of[b]
            or any(h == group_of[b] for h, _ in neighbours.get(group_of[a], ()))
        )
    }


def _checked(checked: set[tuple[str, str]], x: str, y: str) -> bool:
    return (x, y) in checked if x < y else (y, x) in checked


def _components(
    members: Mapping[str, Sequence[str]],
    neighbours: Mapping[str, list[tuple[str, float]]],
    group_of: Mapping[str, str],
    checked: set[tuple[str, str]],
) -> dict[str, int]:
    """Component number of every drawer, by a breadth-first search over groups rather than
    pairs. A visit takes every unvisited member of its own group and of the groups paired with
    it, except those a verdict separates from it (left for another visit): each member is taken
    once, each verdict passed over at most twice."""
    unvisited = {group: set(ids) for group, ids in members.items()}
    component: dict[str, int] = {}
    for start in sorted(group_of):
        if start in component:
            continue
        number = len(component)
        component[start] = number
        unvisited[group_of[start]].discard(start)
        queue = [start]
        while queue:
            drawer = queue.pop()
            group = group_of[drawer]
            for other in (group, *(h for h, _ in neighbours.get(group, ()))):
                left = unvisited[other]
                if not left:
                    continue
                taken = [y for y in left if not _checked(checked, drawer, y)]
                for y in taken:
                    left.discard(y)
                    component[y] = number
                queue.extend(taken)
    return component


Block = tuple[str, str, float]
"""Pairs of drawers: within one group (g == h, score 1.0) or between two paired groups."""


def _blocks(
    groups: Mapping[str, list[str]], neighbours: Mapping[str, list[tuple[str, float]]]
) -> list[Block]:
    blocks: list[Block] = [(g, g, SAME_VECTOR) for g, ids in groups.items() if len(ids) > 1]
    for g in groups:
        for h, score in neighbours.get(g, ()):
            if g < h and h in groups:
                blocks.append((g, h, score))
    return blocks


def _block_size(groups: Mapping[str, list[str]], block: Block) -> int:
    g, h, _ = block
    n = len(groups[g])
    return n * (n - 1) // 2 if g == h else n * len(groups[h])


def _best_pairs(
    groups: Mapping[str, list[str]],
    blocks: list[Block],
    checked: set[tuple[str, str]],
    limit: int,
) -> list[ScoredPair]:
    """The first `limit` pairs by score descending then ids: each block's pairs come out in id
    order, so a merge of the blocks' streams, best score first, gives them in rank order."""
    streams = [
        ((-pair.score, pair.a, pair.b) for pair in _block_pairs(groups, block, checked))
        for block in blocks
    ]
    found: list[ScoredPair] = []
    for negative, a, b in heapq.merge(*streams):
        if len(found) >= limit:
            break
        found.append(ScoredPair(a, b, -negative))
    return found


def _block_pairs(
    groups: Mapping[str, list[str]], block: Block, checked: set[tuple[str, str]]
) -> Iterator[ScoredPair]:
    """A block's pairs without a verdict, in (a, b) order."""
    g, h, score = block
    if g == h:
        ids = groups[g]
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if (a, b) not in checked:
                    yield ScoredPair(a, b, score)
        return
    left, right = groups[g], groups[h]
    side = dict.fromkeys(left, 0) | dict.fromkeys(right, 1)
    for a in sorted(side):
        partners = right if side[a] == 0 else left
        for b in partners[bisect.bisect_right(partners, a) :]:
            if (a, b) not in checked:
                yield ScoredPair(a, b, score)
