"""Duplicate-review verdicts against a real database (every backend available)."""

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from castlegraph.graph.drawers import palace
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.review import duplicates
from tests.support.holding import holding_first


def verdict_edges(store: Any) -> list[str]:
    rows = store.run_text("MATCH (:Drawer)-[v:DEDUP_CHECKED]->(:Drawer) RETURN v.status AS s", {})
    return [row["s"] for row in rows]


def test_two_verdicts_on_one_pair_at_once_leave_one_edge(store: Any) -> None:
    """Both writers found no earlier verdict and each created one edge (Neo4j): the second must
    wait for the first's commit, then replace its verdict."""
    a, b = (
        palace.write_drawer(store, NewDrawer("w", "r", text), DedupPolicy()).drawer.id
        for text in ("the first of two memories", "another memory entirely")
    )
    with holding_first("set_dedup_verdict") as hold, ThreadPoolExecutor(max_workers=2) as pool:
        first = pool.submit(duplicates.record_verdict, store, a, b, "duplicate")
        assert hold.holding.wait(timeout=30)
        second = pool.submit(duplicates.record_verdict, store, b, a, "unrelated")
        time.sleep(0.5)  # the second reaches the pair while the first has not committed
        hold.release.set()
        assert first.result(timeout=60) == second.result(timeout=60) == tuple(sorted((a, b)))
    assert verdict_edges(store) == ["unrelated"]
