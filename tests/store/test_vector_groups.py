"""Vector groups and their pairs (design §6), against a real database.

- Every scope's clusters, at the default threshold and below, equal a brute-force comparison of
  every pair of current drawers (random small palaces with repeated and near-repeated vectors,
  verdicts, supersedes and deletes).
- Drawers sharing one vector store one group, not a pair per two drawers.
- What superseding and deleting leave stored: the closed drawer is in no group and has no
  verdict (readers filter to current drawers, so only the stored state shows it).
"""

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castlegraph.graph.drawers import palace as drawers
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.review import duplicates
from castlegraph.graph.review.duplicates import PAIRS_LIMIT, PENDING_FLOOR, Scope
from castlegraph.graph.review.embeddings import set_embedding
from castlegraph.resolver.clusters import ScoredPair, cluster_pairs

BASES = [
    [1.0, 0.0, 0.0, 0.0],
    [0.999, 0.04, 0.0, 0.0],  # 0.9992 with the first
    [0.9, 0.43, 0.0, 0.0],  # 0.90 with the first: between the thresholds
    [0.6, 0.8, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
]
"""4-d like every test's vectors: Neo4j keeps its vector index and dimension across wipes."""
THRESHOLDS = (PENDING_FLOOR, 0.95, 0.7)
EDGE = 1e-5
"""A pair this close to a threshold may fall either way (float32 vectors): such a threshold
is not compared for that palace."""


UNLINKED = DedupPolicy(enabled=False)
"""Texts alike in words would be linked or merged as they are written: not what is tested."""


def write(store: Any, room: str, text: str, vector: list[float]) -> str:
    drawer = drawers.write_drawer(store, NewDrawer("w", room, text), UNLINKED).drawer.id
    set_embedding(store, drawer, vector, None)
    return drawer


def stored_rows(store: Any, query: str, **params: Any) -> list[dict[str, Any]]:
    return list(store.run_text(query, params))


def expected_clusters(
    vectors: dict[str, list[float]], threshold: float, checked: set[tuple[str, str]]
) -> list[tuple[int, int, list[tuple[str, str, float]]]] | None:
    """Every pair compared with numpy, then clustered: (size, pairs, best pairs) per cluster;
    None when a pair lies within EDGE of the threshold."""
    ids = sorted(vectors)
    if len(ids) < 2:
        return []
    unit = np.asarray([vectors[i] for i in ids], dtype=np.float32).astype(np.float64)
    unit /= np.linalg.norm(unit, axis=1, keepdims=True)
    cosines = np.minimum(unit @ unit.T, 1.0)
    pairs = []
    for i, a in enumerate(ids):
        for j in range(i + 1, len(ids)):
            cosine = float(cosines[i, j])
            if abs(cosine - threshold) < EDGE:
                return None
            if cosine >= threshold and (a, ids[j]) not in checked:
                pairs.append(ScoredPair(a, ids[j], round(cosine, 6)))
    return [
        (c.size, c.total_pairs, [(p.a, p.b, round(p.score, 4)) for p in c.pairs])
        for c in cluster_pairs(pairs, PAIRS_LIMIT)
    ]


def found_clusters(
    store: Any, scope: Scope, threshold: float
) -> list[tuple[int, int, list[tuple[str, str, float]]]]:
    return [
        (c.size, c.total_pairs, [(p.a, p.b, round(p.score, 4)) for p in c.pairs])
        for c in duplicates.duplicate_clusters(store, scope, threshold)
    ]


Palace = st.lists(
    st.tuples(
        st.integers(0, len(BASES) - 1),  # the vector
        st.integers(0, 2),  # near-repeat: this much noise on the last axis, in 0.01 steps
        st.integers(0, 1),  # the room
    ),
    min_size=2,
    max_size=14,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    palace=Palace,
    verdicts=st.lists(st.tuples(st.integers(0, 13), st.integers(0, 13)), max_size=3),
    supersede=st.integers(0, 20),
    delete=st.integers(0, 20),
)
def test_every_scope_equals_a_brute_force_comparison(
    store: Any,
    palace: list[tuple[int, int, int]],
    verdicts: list[tuple[int, int]],
    supersede: int,
    delete: int,
) -> None:
    store.wipe()
    vectors: dict[str, list[float]] = {}
    rooms: dict[str, str] = {}
    for number, (base, noise, room) in enumerate(palace):
        vector = [*BASES[base][:3], noise * 0.01]
        drawer = write(store, f"r{room}", f"memory {number}", vector)
        vectors[drawer], rooms[drawer] = vector, f"r{room}"
    order = list(vectors)
    if supersede < len(order):  # the rewrite keeps the vector: a new member of its group
        old = order[supersede]
        new = drawers.supersede_drawer(store, old, f"rewritten {supersede}", UNLINKED)
        set_embedding(store, new.drawer.id, vectors[old], None)
        vectors[new.drawer.id], rooms[new.drawer.id] = vectors.pop(old), rooms.pop(old)
        order[supersede] = new.drawer.id
    if delete < len(order) and delete != supersede:
        drawers.delete_drawer(store, order[delete])
        del vectors[order[delete]], rooms[order[delete]]
    checked: set[tuple[str, str]] = set()
    for x, y in verdicts:
        if x < len(order) and y < len(order) and x != y and {order[x], order[y]} <= set(vectors):
            duplicates.record_verdict(store, order[x], order[y], "unrelated")
            checked.add((min(order[x], order[y]), max(order[x], order[y])))
    for threshold in THRESHOLDS:
        for scope, room in ((Scope(), None), (Scope("w"), None), (Scope("w", "r0"), "r0")):
            chosen = {d: v for d, v in vectors.items() if room is None or rooms[d] == room}
            expected = expected_clusters(chosen, threshold, checked)
            if expected is not None:
                assert found_clusters(store, scope, threshold) == expected, (scope, threshold)
    everything = expected_clusters(vectors, PENDING_FLOOR, checked)
    if everything is not None:
        pending = duplicates.hygiene(store, PENDING_FLOOR).duplicate_pairs_pending
        assert pending == sum(total for _, total, _ in everything)


def test_drawers_sharing_one_vector_store_one_group(store: Any) -> None:
    """60 drawers with one vector and 5 with a near one: one group each and one pair between
    them, where drawer pairs were 2,080 edges; clusters and hygiene still count every pair."""
    same = [write(store, f"r{i % 3}", f"boilerplate {i}", BASES[0]) for i in range(60)]
    near = [write(store, "r0", f"near boilerplate {i}", BASES[1]) for i in range(5)]
    [groups] = stored_rows(store, "MATCH (g:VectorGroup) RETURN count(g) AS n")
    [pairs] = stored_rows(store, "MATCH (:VectorGroup)-[p]->(:VectorGroup) RETURN count(p) AS n")
    [edges] = stored_rows(store, "MATCH (:Drawer)-[e]-(:Drawer) RETURN count(e) AS n")
    assert (groups["n"], pairs["n"], edges["n"]) == (2, 1, 0)
    every = 65 * 64 // 2
    assert duplicates.hygiene(store, PENDING_FLOOR).duplicate_pairs_pending == every
    [cluster] = duplicates.duplicate_clusters(store, Scope(), PENDING_FLOOR)
    assert (cluster.size, cluster.total_pairs, len(cluster.pairs)) == (65, every, PAIRS_LIMIT)
    assert {p.score for p in cluster.pairs} == {1.0}
    firsts = (ScoredPair(*sorted(group)[:2], 1.0) for group in (same, near))
    assert cluster.pairs[0] == min(firsts)  # every listed score is 1.0: by ids
    [room] = duplicates.duplicate_clusters(store, Scope("w", "r0"), PENDING_FLOOR)
    assert (room.size, room.total_pairs) == (25, 25 * 24 // 2)
    duplicates.record_verdict(store, same[0], near[0], "supplement")
    assert duplicates.hygiene(store, PENDING_FLOOR).duplicate_pairs_pending == every - 1


def membership(store: Any, drawer: str) -> list[dict[str, Any]]:
    """What is stored of a drawer's pending pairs and verdicts: its vector group, its verdicts."""
    return stored_rows(
        store,
        "MATCH (d:Drawer {id: $id}) OPTIONAL MATCH (d)-[v:DEDUP_CHECKED]-() "
        "RETURN d.vector_hash AS hash, count(v) AS verdicts",
        id=drawer,
    )


def test_superseding_clears_what_is_stored(store: Any) -> None:
    first, second = (write(store, "r", f"copy {i}", BASES[0]) for i in range(2))
    near = write(store, "r", "near copy", BASES[1])
    duplicates.record_verdict(store, first, near, "supplement")
    assert membership(store, first)[0]["verdicts"] == 1
    assert membership(store, first)[0]["hash"] == membership(store, second)[0]["hash"]
    drawers.supersede_drawer(store, first, "copy 0, rewritten", UNLINKED)
    assert membership(store, first) == [{"hash": None, "verdicts": 0}]
    assert membership(store, near)[0]["verdicts"] == 0


def test_deleting_clears_what_is_stored(store: Any) -> None:
    first, second = (write(store, "r", f"copy {i}", BASES[0]) for i in range(2))
    near = write(store, "r", "near copy", BASES[1])
    duplicates.record_verdict(store, first, near, "supplement")
    drawers.delete_drawer(store, first)
    assert membership(store, first) == []
    assert membership(store, near)[0]["verdicts"] == 0
    [members] = stored_rows(
        store,
        "MATCH (d:Drawer) WHERE d.vector_hash IS NOT NULL RETURN collect(d.id) AS ids",
    )
    assert sorted(members["ids"]) == sorted([second, near])
