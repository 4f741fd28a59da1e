"""Drawer use cases against a real database (every backend available)."""

import random
import string
from typing import Any

import pytest

from castlegraph.graph.drawers import palace
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.errors import DrawerNameTaken, DrawerNotFound, DrawerSuperseded
from castlegraph.graph.records import Drawer, WriteOutcome

POLICY = DedupPolicy()
TEXT = "The staging deploy listens on port 8080 behind nginx"
TYPO = "The staging deploy listens on port 8080 behind ngnix"


def write(store: Any, content: str, room: str = "ops", **fields: Any) -> WriteOutcome:
    return palace.write_drawer(store, NewDrawer("infra", room, content, **fields), POLICY)


def edges(store: Any) -> set[tuple[str, str, str]]:
    rows = store.run_text(
        "MATCH (a:Drawer)-[s:SIMILAR_TO]->(b:Drawer) RETURN a.id AS a, b.id AS b, s.kind AS k", {}
    )
    return {(row["a"], row["b"], row["k"]) for row in rows}


def test_exact_copy_returns_the_existing_drawer(store: Any) -> None:
    first = write(store, TEXT)
    second = write(store, TEXT)
    assert first.created and not second.created
    assert second.drawer.id == first.drawer.id
    assert second.similar == []


def test_exact_copy_returns_the_oldest_current_drawer(store: Any) -> None:
    older = write(store, TEXT, name="a")
    write(store, TEXT, name="b")
    assert write(store, TEXT).drawer.id == older.drawer.id


def test_a_typo_is_stored_and_linked_near_with_evidence(store: Any) -> None:
    old = write(store, TEXT)
    new = write(store, TYPO)
    assert new.created
    [link] = new.similar
    assert (link.drawer, link.side, link.kind) == (old.drawer.id, "older", "near")
    assert link.similarity == pytest.approx(1 - 1 / len(TEXT), abs=1e-9)  # one transposition
    assert (link.same_hash, link.same_fingerprint, link.threshold) == (False, False, 0.9)
    [seen_from_old] = palace.similar_drawers(store, old.drawer.id)
    assert (seen_from_old.drawer, seen_from_old.side) == (new.drawer.id, "newer")
    assert edges(store) == {(new.drawer.id, old.drawer.id, "near")}


def test_normalized_copy_is_stored_and_linked(store: Any) -> None:
    old = write(store, TEXT)
    new = write(store, TEXT.upper() + "!!")
    assert new.created
    assert [(s.drawer, s.kind, s.same_fingerprint) for s in new.similar] == [
        (old.drawer.id, "normalized", True)
    ]


def test_another_room_is_another_memory(store: Any) -> None:
    write(store, TEXT, room="ops")
    other = write(store, TEXT, room="dev")
    assert other.created and other.similar == []


def test_at_most_five_links_strongest_first(store: Any) -> None:
    olds = [write(store, TEXT + suffix).drawer.id for suffix in ("a", "b", "c", "d", "e", "f")]
    new = write(store, TEXT + "!")  # normalized copy of none; near to all six
    normalized = write(store, TEXT.upper())
    assert len(new.similar) == 5
    assert [s.kind for s in normalized.similar][:1] == ["normalized"]
    assert all(s.drawer in {*olds, new.drawer.id} for s in normalized.similar)
    sims = [(-s.similarity, s.drawer) for s in new.similar]
    assert sims == sorted(sims)


def test_named_drawer_identity(store: Any) -> None:
    first = write(store, TEXT, name="nginx")
    again = write(store, TEXT, name="nginx")
    assert (again.created, again.drawer.id) == (False, first.drawer.id)
    with pytest.raises(DrawerNameTaken) as taken:
        write(store, TYPO, name="nginx")
    assert taken.value.details["drawer"] == first.drawer.id
    copy = write(store, TEXT, name="nginx-copy")
    assert copy.created
    assert [(s.drawer, s.kind) for s in copy.similar] == [(first.drawer.id, "exact")]


def test_named_rewrite_with_supersede_replaces_and_keeps_the_name(store: Any) -> None:
    first = write(store, TEXT, name="nginx")
    outcome = palace.write_drawer(
        store, NewDrawer("infra", "ops", TYPO, name="nginx"), POLICY, supersede=True
    )
    assert outcome.created and outcome.superseded == first.drawer.id
    assert outcome.drawer.supersedes == first.drawer.id
    assert palace.get_drawer(store, first.drawer.id).valid_to is not None
    assert outcome.similar == []  # the superseded drawer is never a candidate


def test_superseding_closes_the_old_drawer_and_frees_its_text(store: Any) -> None:
    old = write(store, TEXT)
    replaced = palace.supersede_drawer(store, old.drawer.id, "Something else entirely now", POLICY)
    assert replaced.created and replaced.superseded == old.drawer.id
    again = write(store, TEXT)
    assert again.created and again.drawer.id != old.drawer.id
    with pytest.raises(DrawerSuperseded):
        palace.supersede_drawer(store, old.drawer.id, "third", POLICY)


def test_delete_removes_the_drawer_and_its_links(store: Any) -> None:
    old = write(store, TEXT)
    new = write(store, TYPO)
    palace.delete_drawer(store, new.drawer.id)
    assert edges(store) == set()
    assert palace.similar_drawers(store, old.drawer.id) == []
    with pytest.raises(DrawerNotFound):
        palace.get_drawer(store, new.drawer.id)
    with pytest.raises(DrawerNotFound):
        palace.delete_drawer(store, new.drawer.id)


def test_delete_similar_undoes_the_link_in_either_direction(store: Any) -> None:
    old = write(store, TEXT)
    new = write(store, TYPO)
    palace.delete_similar(store, old.drawer.id, new.drawer.id)
    assert edges(store) == set()


def test_dedup_disabled_stores_everything_and_links_nothing(store: Any) -> None:
    off = DedupPolicy(enabled=False)
    first = palace.write_drawer(store, NewDrawer("infra", "ops", TEXT), off)
    second = palace.write_drawer(store, NewDrawer("infra", "ops", TEXT), off)
    assert first.created and second.created and second.similar == []
    named = palace.write_drawer(store, NewDrawer("infra", "ops", TEXT, name="n"), off)
    assert not palace.write_drawer(store, NewDrawer("infra", "ops", TEXT, name="n"), off).created
    with pytest.raises(DrawerNameTaken):
        palace.write_drawer(store, NewDrawer("infra", "ops", TYPO, name="n"), off)
    assert named.created and edges(store) == set()


def test_diary_compares_only_the_same_agents_entries(store: Any) -> None:
    def diary(agent: str) -> WriteOutcome:
        entry = NewDrawer(
            "diary", "diary", TEXT, kind="diary", agent=agent, compare_same_agent_only=True
        )
        return palace.write_drawer(store, entry, POLICY)

    first = diary("ada")
    assert not diary("ada").created
    other = diary("bob")
    assert other.created and other.similar == []
    assert diary("ada").drawer.id == first.drawer.id


def test_room_listing_pages_oldest_first(store: Any) -> None:
    ids = [write(store, f"note number {i} about something").drawer.id for i in range(7)]
    seen: list[str] = []
    cursor = None
    while True:
        page, cursor = palace.list_room(store, "infra", "ops", 3, cursor)
        seen += [d.id for d in page]
        if cursor is None:
            break
    assert seen == ids


def test_candidates_come_from_indexes_not_a_room_scan(falkordb_store: Any) -> None:
    """Read from FalkorDB's plan (Neo4j's planner uses the indexes the schema declares)."""
    store = falkordb_store
    from castlegraph.graph.backends.queries import statement  # noqa: PLC0415

    params = {
        "content_hash": "h",
        "fingerprint": "f",
        "terms": ["t"],
        "bands": ["b"],
        "wing": "w",
        "room": "r",
        "agent": None,
        "viewer": "ada",
        "exact_limit": 5,
        "limit": 5,
        "per_term": 5,
        "rare_terms": 2,
    }
    plan = store.explain(statement("drawer_candidates", "falkordb"), params)
    assert plan.count("Node By Index Scan") == 4, plan  # hash, fingerprint, terms, bands
    assert "Label Scan" not in plan, plan


def test_a_drawer_rewritten_many_times_is_still_found_by_its_near_copy(store: Any) -> None:
    """Closed versions leave the candidate index. A chunk re-mined 80 times between two texts
    left 80 closed versions sharing its every word pair; they filled the per-term postings (and
    Neo4j's one full-text limit for all terms) before the current version was reached."""
    texts = (f"{TEXT} in the blue zone", f"{TEXT} in the green zone")
    current = write(store, texts[0]).drawer
    for revision in range(1, 81):
        current = palace.supersede_drawer(store, current.id, texts[revision % 2], POLICY).drawer
    copy = write(store, f"{TYPO} in the blue zone")
    assert [(s.drawer, s.kind) for s in copy.similar] == [(current.id, "near")]


@pytest.mark.parametrize(
    ("original", "copy"),
    [
        ("the storage engine", "the sotrage engine"),  # a typo touching every word pair
        ("replication coordinator heartbeat", "replicatoin coordinatr heartbaet"),  # every word
    ],
)
def test_a_near_copy_with_no_word_pair_in_common_is_found(
    store: Any, original: str, copy: str
) -> None:
    """design §4.5: character evidence (5-gram bands) finds what word pairs cannot see, in a
    room where other drawers share the words."""
    for i in range(30):
        write(store, f"{original.split()[i % 3]} notes number {i} for the team")
    first = write(store, original)
    second = write(store, copy)
    assert [(s.drawer, s.kind) for s in second.similar] == [(first.drawer.id, "near")]


@pytest.mark.parametrize(
    ("original", "typo", "linked"),
    [
        ("set up my vm", "set up my mv", True),  # 12 code points: one transposition is a typo
        ("set up a vm", "set up a mv", False),  # 11: as alike (0.909), but another word
    ],
)
def test_near_copies_start_at_12_characters(
    store: Any, original: str, typo: str, linked: bool
) -> None:
    old = write(store, original)
    new = write(store, typo)
    assert new.created
    expected = [(old.drawer.id, "near")] if linked else []
    assert [(s.drawer, s.kind) for s in new.similar] == expected
    assert edges(store) == ({(new.drawer.id, old.drawer.id, "near")} if linked else set())


def room_with_a_shared_phrase(store: Any, phrase: str, own_words: int) -> list[Drawer]:
    """80 drawers that start with `phrase` and end in `own_words` words of their own: more than
    a term's postings cap (32) and the candidates compared per write (20)."""
    rng = random.Random(5)
    written = []
    for _ in range(80):
        own = " ".join(
            "".join(rng.choices(string.ascii_lowercase, k=rng.randint(5, 8)))
            for _ in range(own_words)
        )
        written.append(write(store, f"{phrase} {own}").drawer)
    return written


def typo_in_the_last_word(content: str) -> str:
    words = content.split()
    words[-1] = words[-1][1] + words[-1][0] + words[-1][2:]
    return " ".join(words)


PHRASE = "weekly status report for the platform team"


def test_the_near_copy_is_found_in_a_room_past_the_candidate_caps(store: Any) -> None:
    """The copy's 7 own word pairs are its rarest terms and lead to the original; the 6 pairs
    of the phrase all 80 drawers share are capped and mostly skipped."""
    original = room_with_a_shared_phrase(store, PHRASE, own_words=8)[57]
    copy = write(store, typo_in_the_last_word(original.content))
    assert copy.created
    assert [(s.drawer, s.kind) for s in copy.similar] == [(original.id, "near")]


def test_the_near_copy_of_a_templated_drawer_is_found(store: Any) -> None:
    """32 drawers sharing the 6 pairs of a room-wide phrase outrank the original by word pairs
    (it shares only its 2 own); the 5-gram bands still bring it to the comparison (design §4.5)."""
    original = room_with_a_shared_phrase(store, PHRASE, own_words=3)[57]
    copy = write(store, typo_in_the_last_word(original.content))
    assert copy.created
    assert [(s.drawer, s.kind) for s in copy.similar] == [(original.id, "near")]
