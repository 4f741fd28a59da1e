"""Pending duplicate pairs kept as vectors arrive (design §6), against a real database.

A seeded random run of embed / re-embed / supersede / delete / verdict operations, and after
each the stored pairs must be exactly the pairs an all-pairs comparison of the current vectors
finds (minus those with a verdict), for the palace, a room and an agent's view; hygiene counts
them.
"""

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from castlegraph.graph.drawers import palace
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.review import duplicates
from castlegraph.graph.review.duplicate_pairs import rebuild_pending_pairs
from castlegraph.graph.review.duplicates import PENDING_FLOOR, Scope
from castlegraph.graph.review.embeddings import set_embedding

DIM = 4
"""4-d like every test's vectors: Neo4j keeps its vector index and dimension across wipes."""
CENTRES = 3
SPREAD = 0.3
"""Noise around a few centres: the cosines of a run fall on both sides of the floor."""
EDGE = 1e-5
"""Pairs this close to the floor may fall either way (float32 vectors): not compared."""
OPERATIONS = 36

Pair = tuple[str, str]


@dataclass
class Model:
    """What the test wrote: current drawers, their vectors, kinds and agents, verdicts."""

    rng: random.Random
    centres: np.ndarray[Any, Any]
    vectors: dict[str, np.ndarray[Any, Any]] = field(default_factory=dict)
    current: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # id -> room, agent
    verdicts: set[Pair] = field(default_factory=set)

    def vector(self) -> list[float]:
        centre = self.centres[self.rng.randrange(CENTRES)]
        noise = np.array([self.rng.gauss(0.0, SPREAD) for _ in range(DIM)])
        return [float(x) for x in centre + noise]

    def cosines(self, ids: list[str]) -> dict[Pair, float]:
        found = {}
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                u = self.vectors[a].astype(np.float32).astype(np.float64)
                v = self.vectors[b].astype(np.float32).astype(np.float64)
                cosine = float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))
                found[(min(a, b), max(a, b))] = cosine
        return found

    def expected(self, room: str | None = None, viewer: str | None = None) -> dict[Pair, float]:
        ids = sorted(
            drawer
            for drawer, (in_room, agent) in self.current.items()
            if drawer in self.vectors
            and (room is None or in_room == room)
            and (viewer is None or agent is None or agent == viewer)
        )
        return {pair: c for pair, c in self.cosines(ids).items() if pair not in self.verdicts}


def stored(store: Any, scope: Scope) -> dict[Pair, float]:
    clusters = duplicates.duplicate_clusters(store, scope, PENDING_FLOOR)
    return {(p.a, p.b): p.score for cluster in clusters for p in cluster.pairs}


def assert_same(found: dict[Pair, float], expected: dict[Pair, float]) -> None:
    sure = {pair for pair, c in expected.items() if c >= PENDING_FLOOR + EDGE}
    possible = {pair for pair, c in expected.items() if c >= PENDING_FLOOR - EDGE}
    assert sure <= set(found) <= possible
    for pair, score in found.items():
        assert score == pytest.approx(expected[pair], abs=1e-5)


def check(store: Any, model: Model) -> None:
    for room, viewer in ((None, None), ("r0", None), (None, "ann")):
        expected = model.expected(room, viewer)
        assert_same(
            stored(store, Scope(wing="w" if room else None, room=room, viewer=viewer)), expected
        )
    report = duplicates.hygiene(store, PENDING_FLOOR)
    assert report.duplicate_pairs_pending == len(stored(store, Scope()))


def write(store: Any, model: Model, number: int) -> str:
    room = f"r{number % 2}"
    agent = ("ann", "bob", None)[number % 3]
    new = NewDrawer(
        "w", room, f"memory number {number}", kind="diary" if agent else "note", agent=agent
    )
    drawer = palace.write_drawer(store, new, DedupPolicy()).drawer.id
    model.current[drawer] = (room, agent)
    return drawer


def embed(store: Any, model: Model, drawer: str) -> None:
    vector = model.vector()
    set_embedding(store, drawer, vector, None)
    model.vectors[drawer] = np.array(vector)


@pytest.mark.parametrize("seed", [3, 11])
def test_stored_pairs_follow_every_change(store: Any, seed: int) -> None:
    rng = random.Random(seed)
    centres = np.array([[rng.gauss(0.0, 1.0) for _ in range(DIM)] for _ in range(CENTRES)])
    model = Model(rng, centres)
    for number in range(8):
        embed(store, model, write(store, model, number))
    check(store, model)
    seen = {"pairs": 0, "verdicts": 0}
    for step in range(OPERATIONS):
        embedded = sorted(d for d in model.current if d in model.vectors)
        operation = rng.choice(["write", "write", "re-embed", "supersede", "delete", "verdict"])
        if operation == "write":
            embed(store, model, write(store, model, 100 + step))
        elif operation == "re-embed" and embedded:
            embed(store, model, rng.choice(embedded))
        elif operation == "supersede" and embedded:
            old = rng.choice(embedded)
            outcome = palace.supersede_drawer(store, old, f"rewritten at {step}", DedupPolicy())
            model.current[outcome.drawer.id] = model.current.pop(old)
            model.verdicts = {pair for pair in model.verdicts if old not in pair}
            if rng.random() < 0.7:
                embed(store, model, outcome.drawer.id)
        elif operation == "delete" and embedded:
            gone = rng.choice(embedded)
            palace.delete_drawer(store, gone)
            del model.current[gone]
            model.verdicts = {pair for pair in model.verdicts if gone not in pair}
        elif operation == "verdict":
            pending = sorted(stored(store, Scope()))
            if pending:
                a, b = rng.choice(pending)
                duplicates.record_verdict(store, b, a, rng.choice(duplicates.VERDICTS))
                model.verdicts.add((a, b))
                seen["verdicts"] += 1
        check(store, model)
        seen["pairs"] = max(seen["pairs"], len(stored(store, Scope())))
    assert seen["pairs"] >= 5 and seen["verdicts"] >= 1  # the run exercised what it claims


def test_the_rebuild_finds_what_was_kept(store: Any) -> None:
    """Migrations 9 and 13 compute, all pairs, the groups vectors stored one by one keep."""
    rng = random.Random(5)
    centres = np.array([[rng.gauss(0.0, 1.0) for _ in range(DIM)] for _ in range(CENTRES)])
    model = Model(rng, centres)
    for number in range(24):
        embed(store, model, write(store, model, number))
    pending = sorted(stored(store, Scope()))
    a, b = pending[0]
    duplicates.record_verdict(store, a, b, "unrelated")
    model.verdicts.add((a, b))
    kept = stored(store, Scope())
    assert len(kept) >= 5
    # pairs of vectors: the judged pair's vectors are paired too, and readers leave it out
    assert rebuild_pending_pairs(store) == len(kept) + 1
    assert stored(store, Scope()) == pytest.approx(kept, abs=1e-5)
    assert_same(kept, model.expected())
