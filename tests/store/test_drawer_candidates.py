"""The candidate statements send only drawers whose length allows a near copy (design §4.5).

A drawer sharing every word pair of a write but three times its length cannot be near it:
the statements leave it out before they rank and cap the shared-terms candidates, so its
content is never read back for nothing, and a room full of such drawers cannot push a real
near copy out of the capped list. Checked on the single write's statement and the batch's.
"""

from typing import Any

from castlegraph.graph.drawers import batch_items, batch_reads, candidates, drawer_batch
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.drawers.palace import write_drawer
from castlegraph.resolver.drawers import prepare_text

TEXT = "rotate the staging certificates before the audit on friday morning"
LONGER = TEXT + " and then " + " ".join(f"note{i} of the weekly review" for i in range(12))
COPY = TEXT.replace("audit", "audti")


def _room(store: Any) -> tuple[str, str]:
    policy = DedupPolicy()
    longer = write_drawer(store, NewDrawer("w", "r", LONGER), policy).drawer.id
    copy = write_drawer(store, NewDrawer("w", "r", COPY), policy).drawer.id
    return longer, copy


def test_a_single_write_reads_no_candidate_its_length_rules_out(store: Any) -> None:
    longer, copy = _room(store)
    new, prepared = NewDrawer("w", "r", TEXT), prepare_text("w", "r", TEXT, 0.9)
    found = store.read(lambda tx: candidates.read_candidates(tx, new, prepared), use_case="test")
    assert {c.id for c in found} == {copy}
    assert longer not in {c.id for c in found}


def test_a_batch_reads_no_candidate_its_length_rules_out(store: Any) -> None:
    _, copy = _room(store)
    item = batch_items.PreparedDrawer.of(
        0, NewDrawer("w", "r", TEXT), prepare_text("w", "r", TEXT, 0.9)
    )
    found = store.read(
        lambda tx: batch_reads.read_batch_candidates(tx, [item], True, store.dialect),
        use_case="test",
    )
    assert set(found[0].candidates) == {copy}
    [outcome] = drawer_batch.write_drawers(store, [NewDrawer("w", "r", TEXT)], DedupPolicy())
    assert [s.drawer for s in outcome.similar] == [copy]  # type: ignore[union-attr]
