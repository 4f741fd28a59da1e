"""A batch of drawer writes leaves the graph exactly as the same writes one by one (design §4.4).

Random items with planted exact, normalised and near copies — of drawers already in the room
and of items earlier in the same batch — plus names repeated with the same or other content,
a second room and texts too short to be near: written once with `write_drawers` and once item
by item with `write_drawer`, each on a wiped graph seeded alike, the outcomes and the graph
(current drawers, closed drawers, links with their evidence) must be the same.
"""

import random
from typing import Any

import pytest

from castlegraph.graph.drawers import batch_reads, palace
from castlegraph.graph.drawers.drawer_batch import prepare_drawers, write_drawers
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.errors import DrawerNameTaken
from castlegraph.graph.records import WriteOutcome

POLICY = DedupPolicy()
WORDS = [
    *("storage", "engine", "replica", "leader", "follower", "index", "shard", "commit"),
    *("journal", "snapshot", "cache", "queue", "worker", "deploy", "staging", "nginx"),
    *("port", "token", "budget", "latency", "vector", "drawer", "palace"),
]


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 14))).capitalize() + "."


def _typo(text: str, rng: random.Random) -> str:
    if len(text) < 5:
        return text + "x"
    at = rng.randrange(1, len(text) - 2)
    return text[:at] + text[at + 1] + text[at] + text[at + 2 :]


def _items(seed: int, room: list[str], count: int) -> list[NewDrawer]:
    """`count` items in write order: copies of the room and of earlier items, names, rooms."""
    rng = random.Random(seed)
    earlier = list(room)
    names: dict[str, str] = {}
    items: list[NewDrawer] = []
    for index in range(count):
        roll = rng.random()
        if roll < 0.15:
            content = rng.choice(earlier)  # exact
        elif roll < 0.25:
            content = rng.choice(earlier).upper() + "!!"  # normalised
        elif roll < 0.5:
            content = _typo(rng.choice(earlier), rng)  # near
        elif roll < 0.55:
            content = rng.choice(["use port 8080", "use port 8081", "ok"])  # short
        else:
            content = _text(rng)
        name = None
        if rng.random() < 0.2:
            name = f"note-{rng.randrange(8)}"
            if name in names and rng.random() < 0.5:
                content = names[name]  # the same name with the same content
            elif rng.random() < 0.5:
                content = rng.choice(earlier)  # a named exact copy: stored, linked
            names[name] = content
        where = "other" if rng.random() < 0.1 else "ops"
        earlier.append(content)
        items.append(
            NewDrawer("infra", where, content, name=name, drawer_id=f"item-{seed}-{index}")
        )
    return items


def _seed_room(store: Any, seed: int) -> list[str]:
    rng = random.Random(seed * 7919)
    texts = [_text(rng) for _ in range(25)]
    for index, content in enumerate(texts):
        name = "note-3" if index == 3 else None
        new = NewDrawer("infra", "ops", content, name=name, drawer_id=f"seed-{index}")
        palace.write_drawer(store, new, POLICY)
    return texts


def _shown(outcome: WriteOutcome | DrawerNameTaken) -> tuple[Any, ...]:
    if isinstance(outcome, DrawerNameTaken):
        return ("name_taken", outcome.details.get("drawer"))
    links = tuple((s.drawer, s.kind, round(s.similarity, 9)) for s in outcome.similar)
    return (outcome.created, outcome.drawer.id, outcome.superseded, links)


def _graph(store: Any) -> dict[str, Any]:
    nodes = store.run_text(
        "MATCH (r:Room)-[:HAS_DRAWER]->(d:Drawer) RETURN d.id AS id, d.room AS room, "
        "d.name AS name, d.content AS content, d.valid_to IS NULL AS current, "
        "d.supersedes AS supersedes, d.terms AS terms",
        {},
    )
    links = store.run_text(
        "MATCH (a:Drawer)-[s:SIMILAR_TO]->(b:Drawer) RETURN a.id AS a, b.id AS b, s.kind AS kind, "
        "s.similarity AS similarity, s.same_hash AS h, s.same_fingerprint AS f",
        {},
    )
    return {
        "drawers": sorted(
            (
                r["id"],
                r["room"],
                r["name"],
                r["content"],
                r["current"],
                r["supersedes"],
                tuple(r["terms"] or ()),
            )
            for r in nodes
        ),
        "links": sorted(
            (r["a"], r["b"], r["kind"], round(r["similarity"], 9), r["h"], r["f"]) for r in links
        ),
    }


def _one_by_one(store: Any, items: list[NewDrawer], supersede: bool) -> list[Any]:
    shown = []
    for new in items:
        try:
            shown.append(_shown(palace.write_drawer(store, new, POLICY, supersede=supersede)))
        except DrawerNameTaken as error:
            shown.append(_shown(error))
    return shown


@pytest.mark.parametrize("supersede", [False, True], ids=["checkpoint", "mining"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_batch_writes_what_single_writes_write(store: Any, seed: int, supersede: bool) -> None:
    room = _seed_room(store, seed)
    items = _items(seed, room, 60)
    singly = _one_by_one(store, items, supersede)
    expected = _graph(store)

    store.wipe()
    _seed_room(store, seed)
    batched = [_shown(o) for o in write_drawers(store, items, POLICY, supersede=supersede)]

    assert batched == singly
    assert _graph(store) == expected
    kinds = {link[2] for link in expected["links"]}
    assert kinds == {"exact", "normalized", "near"}  # the draw planted every kind
    assert any(o[0] is False for o in singly)  # unnamed copies returned the existing drawer
    if supersede:
        assert any(o[0] is True and o[2] is not None for o in singly)  # a name superseded
    else:
        assert any(o[0] == "name_taken" for o in singly)


def test_an_empty_batch_writes_nothing(store: Any) -> None:
    assert write_drawers(store, [], POLICY) == []
    assert _graph(store) == {"drawers": [], "links": []}


def _found(store: Any, items: list[NewDrawer], dialect: str) -> dict[int, Any]:
    prepared = prepare_drawers(items, POLICY.near_threshold)
    found = store.read(
        lambda tx: batch_reads.read_batch_candidates(tx, prepared, True, dialect), use_case="test"
    )
    return {
        index: (
            sorted((c.id, c.content, c.norm_len, c.drawer) for c in entry.candidates.values()),
            [holder.id for holder in entry.holders],
        )
        for index, entry in found.items()
    }


@pytest.mark.parametrize("seed", [1, 2])
def test_the_batch_read_item_by_item_finds_what_the_one_statement_finds(
    store: Any, seed: int
) -> None:
    """FalkorDB reads a batch's candidates item by item (design §4.4), its name holders all
    at once: each item gets the candidates and name holders the one statement returns for it."""
    room = _seed_room(store, seed)
    items = _items(seed, room, 60)
    palace.write_drawer(store, NewDrawer("infra", "ops", room[5], name="note-1"), POLICY)
    each = _found(store, items, "falkordb")
    assert each == _found(store, items, "neo4j")
    assert sum(len(candidates) for candidates, _ in each.values()) > len(items)
    assert any(holders for _, holders in each.values())
