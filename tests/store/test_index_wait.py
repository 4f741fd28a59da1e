"""Searches wait for an in-memory index where the database keeps none (design §5.4).

On FalkorDB the service drops the database's candidate indexes while its in-memory ones serve
(`SequencedIndex.database_answers` is then false): a write that arrives while one builds waits
for it and decides as the database's index would have; past the bound it is refused with a
retryable 503. The waiting is the index's own, so it is checked on both backends: each test
says the database keeps no index, whatever this store holds.
"""

import threading
from typing import Any

import pytest

from castlegraph.api.http.statuses import http_status
from castlegraph.graph.drawers.drawer_batch import write_drawers, write_drawers_saving
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.drawers.palace import write_drawer
from castlegraph.graph.entities.entity_curation import find_entities
from castlegraph.graph.entities.resolution import MentionInput, dry_run, resolve_mentions
from castlegraph.graph.errors import GraphUnavailable, JobNotFound
from castlegraph.graph.indexes.drawer_index import DrawerIndex
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.graph.jobs import ProgressSave
from castlegraph.resolver.entity_model import make_mention
from tests.store.test_entities import KNOWN_WORD, new_drawer, resolve
from tests.support.statements import recording_statements

POLICY = DedupPolicy()
BLOCKED_SECONDS = 0.3
"""How long a waiting write is watched before the build starts: it must still be waiting
(a write that went ahead would have finished; nothing passes by waiting longer)."""
JOIN_SECONDS = 60.0

ORIGINAL = "The storage engine keeps every page of the log in one file on the disk."
NEAR_COPY = "The sotrage engine keeps every page of the log in one file on the disk."


def unbuilt(index: Any, wait_seconds: float) -> Any:
    index.database_answers = False
    index.wait_seconds = wait_seconds
    return index


class Waiting:
    """`work` run on a thread of its own; its answer or its error kept."""

    def __init__(self, work: Any) -> None:
        self.answer: Any = None
        self.error: BaseException | None = None

        def run() -> None:
            try:
                self.answer = work()
            except BaseException as error:  # handed to the test
                self.error = error

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def still_waiting(self) -> bool:
        self.thread.join(BLOCKED_SECONDS)
        return self.thread.is_alive()

    def result(self) -> Any:
        self.thread.join(JOIN_SECONDS)
        assert not self.thread.is_alive()
        if self.error is not None:
            raise self.error
        return self.answer


def test_a_mention_batch_waits_for_the_entity_index_then_decides_the_same(store: Any) -> None:
    drawer = new_drawer(store, "notes on the cluster")
    [seeded] = resolve(store, drawer, ("Kubernetes", "tool"))
    expected, _ = dry_run(
        store, make_mention("Kubernets", "tool"), fuzzy=True, known_word=KNOWN_WORD
    )
    index = unbuilt(EntityIndex(), JOIN_SECONDS)
    inputs = [MentionInput(drawer, make_mention("Kubernets", "tool"))]
    waiting = Waiting(
        lambda: resolve_mentions(store, inputs, fuzzy=True, known_word=KNOWN_WORD, memory=index)
    )
    assert waiting.still_waiting()
    index.build(store)
    [result] = waiting.result()
    assert (result.rule, result.entity.view.id, result.created) == (
        expected.rule,
        seeded.entity.view.id,
        False,
    )
    assert result.rule == "typo"


def test_a_drawer_write_waits_for_the_drawer_index_then_links_the_same(store: Any) -> None:
    original = write_drawer(store, NewDrawer("work", "notes", ORIGINAL), POLICY).drawer
    index = unbuilt(DrawerIndex(), JOIN_SECONDS)
    waiting = Waiting(
        lambda: write_drawer(store, NewDrawer("work", "notes", NEAR_COPY), POLICY, memory=index)
    )
    assert waiting.still_waiting()
    index.build(store)
    outcome = waiting.result()
    assert outcome.created
    assert [entry.drawer for entry in outcome.similar] == [original.id]


def test_past_the_bound_writes_and_searches_are_refused_with_a_retryable_503(store: Any) -> None:
    drawer = new_drawer(store, "notes on the cluster")
    resolve(store, drawer, ("Kubernetes", "tool"))
    entities = unbuilt(EntityIndex(), 0.0)
    drawers = unbuilt(DrawerIndex(), 0.0)
    inputs = [MentionInput(drawer, make_mention("Kubernets", "tool"))]
    refused = [
        lambda: resolve_mentions(store, inputs, fuzzy=True, known_word=KNOWN_WORD, memory=entities),
        lambda: dry_run(
            store,
            make_mention("Kubernets", "tool"),
            fuzzy=True,
            known_word=KNOWN_WORD,
            memory=entities,
        ),
        lambda: find_entities(store, "Kubernetes", None, entities),
        lambda: write_drawer(store, NewDrawer("work", "notes", NEAR_COPY), POLICY, memory=drawers),
    ]
    for call in refused:
        with pytest.raises(GraphUnavailable) as caught:
            call()
        assert (http_status(type(caught.value)), caught.value.is_retryable()) == (503, True)
        assert caught.value.details["state"] == "building"
    assert len(store.run_text("MATCH (e:Entity) RETURN e.id AS id", {})) == 1  # nothing written


def test_after_a_failed_build_searches_go_to_the_database_at_once(store: Any) -> None:
    drawer = new_drawer(store, "notes on the cluster")
    [seeded] = resolve(store, drawer, ("Kubernetes", "tool"))
    index = unbuilt(EntityIndex(), JOIN_SECONDS)
    index.failed()
    assert index.state == "failed"
    inputs = [MentionInput(drawer, make_mention("Kubernets", "tool"))]
    [result] = resolve_mentions(store, inputs, fuzzy=True, known_word=KNOWN_WORD, memory=index)
    assert (result.rule, result.entity.view.id) == ("typo", seeded.entity.view.id)
    assert [e.view.id for e in find_entities(store, "kubernetes", None, index)] == [
        seeded.entity.view.id
    ]


def test_names_are_found_through_the_built_index(store: Any) -> None:
    drawer = new_drawer(store, "notes on the cluster")
    [seeded] = resolve(store, drawer, ("Kubernetes", "tool"))
    index = unbuilt(EntityIndex(), 0.0)
    index.build(store)
    found = find_entities(store, "KUBERNETES", "tool", index)
    assert [e.view.id for e in found] == [seeded.entity.view.id]
    assert find_entities(store, "Kubernetes", "person", index) == []


def test_every_part_of_a_batch_searches_memory(store: Any) -> None:
    """A batch whose names repeat is written in parts, and the in-memory index answers each:
    no part searches the database's term index, which may not be there (design §5.4). On
    FalkorDB each part's statements commit as they run, so the index takes in the parts
    before; on Neo4j it answers as it stood, and the batch compares its own drawers itself."""
    original = write_drawer(store, NewDrawer("work", "notes", ORIGINAL), POLICY).drawer
    index = unbuilt(DrawerIndex(), 0.0)
    index.build(store)
    items = [
        NewDrawer("work", "notes", "The plan for the week ahead, first draft.", name="plan"),
        NewDrawer("work", "notes", "The plan for the week ahead, second draft.", name="plan"),
        NewDrawer("work", "notes", NEAR_COPY),
        NewDrawer("work", "notes", NEAR_COPY + " Again."),
    ]
    with recording_statements() as watching:
        first, taken, near, nearer = write_drawers(
            store, items, POLICY, supersede=True, memory=index
        )
    assert not isinstance(first, Exception) and not isinstance(taken, Exception)
    assert not isinstance(near, Exception) and not isinstance(nearer, Exception)
    assert taken.superseded == first.drawer.id
    assert [entry.drawer for entry in near.similar] == [original.id]
    assert sorted(entry.drawer for entry in nearer.similar) == sorted([original.id, near.drawer.id])
    assert {"drawer_candidates", "drawer_batch_candidates"}.isdisjoint(watching.names)
    assert watching.names.count("drawer_batch_candidates_by_ids") == 2  # one read per part


def test_a_neo4j_batch_that_fails_leaves_the_index_as_it_stood(neo4j_session_store: Any) -> None:
    """A later part reads the drawer sequence with the unit's own uncommitted parts counted:
    an index that took them in would hold drawers that were never committed, and count the
    sequence values the next writers commit as seen (so miss their drawers)."""
    store = neo4j_session_store
    store.wipe()
    write_drawer(store, NewDrawer("work", "notes", "An earlier note on the backups."), POLICY)
    index = unbuilt(DrawerIndex(), 0.0)
    index.build(store)
    stood = index.position()
    items = [
        NewDrawer("work", "notes", "The plan for the week ahead, first draft.", name="plan"),
        NewDrawer("work", "notes", "The plan for the week ahead, second draft.", name="plan"),
        NewDrawer("work", "notes", "A note on the rotation of the certificates."),
    ]
    no_job = ProgressSave.of("no-such-job", "owner", 1, done=3)
    with pytest.raises(JobNotFound):
        write_drawers_saving(store, items, POLICY, lambda _: no_job, memory=index)
    assert index.position() == stood
    assert len(store.run_text("MATCH (d:Drawer) RETURN d.id AS id", {})) == 1
    original = write_drawer(store, NewDrawer("work", "notes", ORIGINAL), POLICY).drawer
    near = write_drawer(store, NewDrawer("work", "notes", NEAR_COPY), POLICY, memory=index)
    assert [entry.drawer for entry in near.similar] == [original.id]
