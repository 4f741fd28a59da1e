"""Resolution locks per kind (design §2.2, §5.5): writers of different kinds go on beside each
other, writers that meet a kind wait for each other, and no order of kinds deadlocks.

Each test holds the first unit open inside its transaction (`tests.support.holding`), after
its locks and before its commit, while a second writer runs: what two instances meet. FalkorDB's
store serialises every unit of its one process, so the tests of writers that do not wait and of
a catch-up meeting a commit half way run on Neo4j alone; the others run on both.
"""

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from castlegraph.graph.backends import observe
from castlegraph.graph.entities.bulk import load_entities
from castlegraph.graph.entities.resolution import MentionInput, dry_run, resolve_mentions
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.resolver.entity_model import make_mention
from tests.store.test_entities import KNOWN_WORD, new_drawer, resolve
from tests.support.holding import holding_first

AFTER_LOCKS = "existing_drawer_ids"
"""The unit's first statement after its locks (`resolve_mentions` checks the drawers)."""


class FailedStatements:
    """Statements that failed while subscribed: a deadlock Neo4j broke shows as one (the
    driver retries the unit, so its result alone would not tell)."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def statement(self, name: str, seconds: float, failed: bool) -> None:
        if failed:
            self.names.append(name)

    def unit(self, use_case: str, result: object) -> None:
        """Units need nothing here."""


def entity_rows(store: Any) -> list[tuple[str, str]]:
    rows = store.run_text("MATCH (e:Entity) RETURN e.name AS name, e.kind AS kind", {})
    return sorted((row["name"], row["kind"]) for row in rows)


def test_writers_of_different_kinds_do_not_wait_for_each_other(store: Any) -> None:
    """The first holds the `person` lock uncommitted; an `organization` batch commits meanwhile.
    With one `entities` lock the second waited for the first's commit."""
    if store.dialect == "falkordb":
        pytest.skip("FalkorDB's store serialises every write unit of its one process")
    drawer = new_drawer(store, "notes on the team")
    with holding_first(AFTER_LOCKS) as hold, ThreadPoolExecutor(max_workers=2) as pool:
        person = pool.submit(resolve, store, drawer, ("Ada Lovelace", "person"))
        assert hold.holding.wait(timeout=30)
        [acme] = pool.submit(resolve, store, drawer, ("Acme Works", "organization")).result(
            timeout=30
        )
        assert not person.done()  # still held: the organization did not wait for it
        hold.release.set()
        [ada] = person.result(timeout=60)
    assert (ada.created, acme.created) == (True, True)
    assert entity_rows(store) == [("Acme Works", "organization"), ("Ada Lovelace", "person")]


def test_writers_of_one_kind_wait_and_end_with_one_entity_per_key(store: Any) -> None:
    drawer = new_drawer(store, "notes on the team")
    with holding_first(AFTER_LOCKS) as hold, ThreadPoolExecutor(max_workers=2) as pool:
        first = pool.submit(resolve, store, drawer, ("Ada Lovelace", "person"))
        assert hold.holding.wait(timeout=30)
        second = pool.submit(resolve, store, drawer, ("ADA LOVELACE", "person"))
        time.sleep(0.5)  # the second reaches the `person` lock while the first holds it
        assert not second.done()
        hold.release.set()
        [ada], [again] = first.result(timeout=60), second.result(timeout=60)
    assert (ada.created, again.created) == (True, False)
    assert again.entity.view.id == ada.entity.view.id
    assert entity_rows(store) == [("Ada Lovelace", "person")]


def test_an_other_mention_waits_for_a_kind_it_may_meet(store: Any) -> None:
    """`Grace Hopper` of kind `other` meets the `person` being created: it waits for that
    commit and resolves to it, instead of creating a second entity beside it."""
    drawer = new_drawer(store, "notes on the team")
    resolve(store, drawer, ("Alan Turing", "person"))  # the kind has its lock
    with holding_first("write_resolutions") as hold, ThreadPoolExecutor(max_workers=2) as pool:
        person = pool.submit(resolve, store, drawer, ("Grace Hopper", "person"))
        assert hold.holding.wait(timeout=30)
        unclassified = pool.submit(resolve, store, drawer, ("Grace Hopper", "other"))
        time.sleep(0.5)  # the `other` mention reaches the locks while the person is uncommitted
        assert not unclassified.done()
        hold.release.set()
        [grace], [seen] = person.result(timeout=60), unclassified.result(timeout=60)
    assert (seen.created, seen.rule, seen.entity.view.id) == (False, "exact", grace.entity.view.id)
    assert entity_rows(store) == [("Alan Turing", "person"), ("Grace Hopper", "person")]


def test_batches_of_the_same_kinds_in_opposite_orders_never_deadlock(store: Any) -> None:
    """Both batches lock `organization` then `person`, whatever order their mentions come in:
    the second waits, no statement fails (a deadlock Neo4j broke would), both resolve."""
    drawer = new_drawer(store, "notes on the team")
    failed = FailedStatements()
    observe.subscribe(failed)
    try:
        with holding_first(AFTER_LOCKS) as hold, ThreadPoolExecutor(max_workers=2) as pool:
            first = pool.submit(
                resolve, store, drawer, ("Ada Lovelace", "person"), ("Acme Works", "organization")
            )
            assert hold.holding.wait(timeout=30)
            second = pool.submit(
                resolve, store, drawer, ("ACME WORKS", "organization"), ("ADA LOVELACE", "person")
            )
            time.sleep(0.5)  # the second reaches the locks while the first holds both
            hold.release.set()
            ada, acme = first.result(timeout=60)
            acme_again, ada_again = second.result(timeout=60)
    finally:
        observe.unsubscribe(failed)
    assert failed.names == []
    assert (acme_again.entity.view.id, ada_again.entity.view.id) == (
        acme.entity.view.id,
        ada.entity.view.id,
    )
    assert entity_rows(store) == [("Acme Works", "organization"), ("Ada Lovelace", "person")]


def test_an_other_mention_meeting_a_kind_it_did_not_lock_starts_again_holding_it(
    store: Any,
) -> None:
    """An entity of a kind no unit had locked (loaded in bulk, or by an older version) is met
    by an `other` mention: the unit starts again holding that kind, and resolves to it."""
    drawer = new_drawer(store, "notes on the team")
    load_entities(store, [("Lake Zorvan", "place", [])])
    [seen] = resolve(store, drawer, ("Lake Zorvan", "other"))
    assert (seen.created, seen.rule, seen.entity.view.kind) == (False, "exact", "place")
    if store.dialect == "neo4j":
        rows = store.run_text(
            "MATCH (l:Lock) WHERE l.name STARTS WITH 'entities' RETURN l.name AS name", {}
        )
        assert sorted(row["name"] for row in rows) == ["entities\x1fother", "entities\x1fplace"]


def test_a_unit_that_changes_nothing_leaves_what_another_kind_committed_to_be_caught_up(
    store: Any,
) -> None:
    """The in-memory index of one instance: a `person` unit that changes nothing caught up
    before another instance committed an `organization` (now possible: it holds no lock that
    organization needs). Its statement returns the counter that other unit left; counting it as
    seen would leave that organization out of the index for good, and a later mention of it
    would create it again (refused by the (kind, name) constraint on Neo4j)."""
    drawer = new_drawer(store, "notes on the team")
    index = EntityIndex()
    assert index.build(store) is not None

    def remembered(name: str, kind: str) -> Any:
        inputs = [MentionInput(drawer, make_mention(name, kind))]
        [result] = resolve_mentions(store, inputs, fuzzy=True, known_word=KNOWN_WORD, memory=index)
        return result

    remembered("Ada Lovelace", "person")
    with holding_first("entity_seq") as hold, ThreadPoolExecutor(max_workers=2) as pool:
        again = pool.submit(remembered, "Ada Lovelace", "person")  # caught up, then held
        assert hold.holding.wait(timeout=30)
        other = pool.submit(resolve, store, drawer, ("Initech", "organization"))
        if store.dialect == "neo4j":  # FalkorDB's other writer waits for the held unit
            other.result(timeout=60)
        hold.release.set()
        assert (again.result(timeout=60).created, again.result().linked) == (False, False)
        [initech] = other.result(timeout=60)
    seen = remembered("Initech", "organization")
    assert (seen.created, seen.entity.view.id) == (False, initech.entity.view.id)


def test_a_catch_up_waits_for_a_writer_still_committing_the_counter(store: Any) -> None:
    """Neo4j shows a commit to other readers part by part: a catch-up that read the counter
    mid-commit (its new value, not yet all the entities stamped with it) would count that
    value as seen and leave those entities out of the index for good; `bench instances` met
    one as a (kind, name) conflict. So a catch-up that finds the counter moved reads it again
    under its lock, which a writer holds until its commit is applied: here it finds Acme's
    commit, waits for Initech's, and takes both in."""
    if store.dialect == "falkordb":
        pytest.skip("FalkorDB applies each statement whole, and serialises every unit")
    drawer = new_drawer(store, "notes on the team")
    writer, reader = EntityIndex(), EntityIndex()
    assert writer.build(store) is not None and reader.build(store) is not None

    def written(name: str) -> Any:
        inputs = [MentionInput(drawer, make_mention(name, "organization"))]
        [result] = resolve_mentions(store, inputs, fuzzy=True, known_word=KNOWN_WORD, memory=writer)
        return result

    acme = written("Acme Works")
    with holding_first("write_resolutions") as hold, ThreadPoolExecutor(max_workers=2) as pool:
        initech = pool.submit(written, "Initech")
        assert hold.holding.wait(timeout=30)  # its statement ran; its commit is held
        caught_up = pool.submit(store.read, reader.catch_up, use_case="test_catch_up")
        time.sleep(0.5)
        assert not caught_up.done()  # the counter moved: waiting for its lock
        hold.release.set()
        created = initech.result(timeout=60)
        assert caught_up.result(timeout=60) is True
    assert reader.seen == writer.seen == 2
    for name, entity in (("ACME WORKS", acme), ("INITECH", created)):  # nothing left to read
        mention = make_mention(name, "organization")
        decision, _ = dry_run(store, mention, fuzzy=True, known_word=KNOWN_WORD, memory=reader)
        assert decision.entity is not None and decision.entity.id == entity.entity.view.id
