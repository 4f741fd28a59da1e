"""No statement's cost follows the degree of a node users control (design §10).

A drawer can hold thousands of mentions and an entity can be mentioned by a million drawers, a
drawer can have thousands of near copies and an entity thousands of review links. Statements
that look at one (drawer, entity) or (drawer, drawer) pair must find that pair's edge without
walking the others: each test runs a statement on a pair whose node has `DEGREE` edges of that
type and on a pair of ordinary nodes, and compares the work the database's own profiler counts
(rows the operators produced on FalkorDB, database hits on Neo4j) — never times.
"""

from typing import Any

import pytest

from castlegraph.graph.backends.queries import statement
from castlegraph.graph.entities.resolution import MentionInput, resolve_mentions
from castlegraph.resolver.entity_model import make_mention
from tests.store.test_entities import KNOWN_WORD

DEGREE = 300
SLACK = 30
"""Work a pair of a high-degree node may take beyond an ordinary pair's: a constant for the
bookkeeping of dense nodes, far below one unit per edge of `DEGREE`."""


def _nodes(store: Any, label: str, prefix: str, count: int) -> None:
    store.run_text(
        f"UNWIND range(0, $n - 1) AS i CREATE (:{label} {{id: $prefix + toString(i)}})",
        {"n": count, "prefix": prefix},
    )


def _edges(store: Any, kind: str, pairs: list[tuple[str, str, str, str]]) -> None:
    """(start label, start id, end label, end id) per edge of type `kind`."""
    for start_label, end_label in {(p[0], p[2]) for p in pairs}:
        rows = [{"a": p[1], "b": p[3]} for p in pairs if (p[0], p[2]) == (start_label, end_label)]
        store.run_text(
            f"UNWIND $rows AS row MATCH (a:{start_label} {{id: row.a}}) "
            f"MATCH (b:{end_label} {{id: row.b}}) CREATE (a)-[:{kind}]->(b)",
            {"rows": rows},
        )


def _work(store: Any, name: str, **params: Any) -> int:
    return int(store.profile_work(statement(name, store.dialect), params))


@pytest.fixture
def mentions_graph(store: Any) -> Any:
    """Drawer `hot` mentions e0..e299, entity `famous` is mentioned by d0..d299; `cold` drawer
    mentions `plain` once."""
    _nodes(store, "Drawer", "d", DEGREE + 2)
    _nodes(store, "Entity", "e", DEGREE + 2)
    _nodes(store, "Drawer", "hot", 1)
    _nodes(store, "Drawer", "cold", 1)
    _nodes(store, "Entity", "famous", 1)
    _nodes(store, "Entity", "plain", 1)
    edges = [("Drawer", "hot0", "Entity", f"e{i}") for i in range(DEGREE)]
    edges += [("Drawer", f"d{i}", "Entity", "famous0") for i in range(DEGREE)]
    edges += [("Drawer", "cold0", "Entity", "plain0")]
    _edges(store, "MENTIONS", edges)
    return store


@pytest.mark.parametrize(
    ("hot", "cold"),
    [
        pytest.param(("hot0", "e7"), ("cold0", "plain0"), id="drawer-with-many-mentions-linked"),
        pytest.param(("hot0", "e301"), ("cold0", "e300"), id="drawer-with-many-mentions-unlinked"),
        pytest.param(("d7", "famous0"), ("cold0", "plain0"), id="much-mentioned-entity-linked"),
        pytest.param(("d301", "famous0"), ("cold0", "e300"), id="much-mentioned-entity-unlinked"),
    ],
)
def test_the_existing_mentions_check_does_not_walk_a_nodes_mentions(
    mentions_graph: Any, hot: tuple[str, str], cold: tuple[str, str]
) -> None:
    store = mentions_graph

    def work(pair: tuple[str, str]) -> int:
        return _work(store, "existing_mentions", pairs=[{"drawer": pair[0], "entity": pair[1]}])

    assert work(hot) <= work(cold) + SLACK


def test_a_repeat_into_a_drawer_with_many_mentions_is_recognised(mentions_graph: Any) -> None:
    store = mentions_graph
    store.run_text("MATCH (e:Entity) SET e.name = e.id, e.kind = 'person', e.key = e.id", {})
    rows = store.run_text("MATCH (e:Entity {id: 'e7'}) RETURN e.id AS id", {})
    assert rows == [{"id": "e7"}]
    found = store.read(
        lambda tx: tx.run(
            "existing_mentions",
            pairs=[
                {"drawer": "hot0", "entity": "e7"},
                {"drawer": "hot0", "entity": "e301"},
                {"drawer": "d7", "entity": "famous0"},
                {"drawer": "d301", "entity": "famous0"},
            ],
        ),
        use_case="test",
    )
    assert sorted((row["drawer"], row["entity"]) for row in found) == [
        ("d7", "famous0"),
        ("hot0", "e7"),
    ]


def test_resolving_into_a_drawer_with_many_mentions_keeps_one_edge_per_entity(
    store: Any,
) -> None:
    """Through the use case: repeats are found among many mentions and not linked again."""
    from tests.store.test_entities import new_drawer  # noqa: PLC0415

    drawer = new_drawer(store, "a drawer that mentions many names")
    names = [(f"Person Number {i:03d}", "person") for i in range(DEGREE)]
    inputs = [MentionInput(drawer, make_mention(name, kind)) for name, kind in names]
    first = resolve_mentions(store, inputs, fuzzy=True, known_word=KNOWN_WORD)
    again = resolve_mentions(store, inputs[::7], fuzzy=True, known_word=KNOWN_WORD)
    assert all(r.linked for r in first)
    assert [r.linked for r in again] == [False] * len(inputs[::7])
    assert [r.entity.view.id for r in again] == [r.entity.view.id for r in first[::7]]
    rows = store.run_text(
        "MATCH (:Drawer {id: $id})-[m:MENTIONS]->() RETURN count(m) AS n", {"id": drawer}
    )
    assert rows == [{"n": DEGREE}]


@pytest.fixture
def linked_graph(store: Any) -> Any:
    """Drawer `hot0` has DEGREE near copies and DEDUP verdicts, entity `famous0` DEGREE review
    links; `a0`-`b0` (drawers) and `x0`-`y0` (entities) are an ordinary linked pair."""
    _nodes(store, "Drawer", "d", DEGREE + 1)
    _nodes(store, "Entity", "e", DEGREE + 1)
    for label, prefix in (("Drawer", "hot"), ("Drawer", "a"), ("Drawer", "b")):
        _nodes(store, label, prefix, 1)
    for prefix in ("famous", "x", "y"):
        _nodes(store, "Entity", prefix, 1)
    similar = [("Drawer", "hot0", "Drawer", f"d{i}") for i in range(DEGREE)]
    _edges(store, "SIMILAR_TO", [*similar, ("Drawer", "a0", "Drawer", "b0")])
    _edges(store, "DEDUP_CHECKED", [*similar, ("Drawer", "a0", "Drawer", "b0")])
    links = [("Entity", f"e{i}", "Entity", "famous0") for i in range(DEGREE)]
    _edges(store, "POSSIBLY_SAME_AS", [*links, ("Entity", "x0", "Entity", "y0")])
    return store


@pytest.mark.parametrize("ids", [("hot0", "d300"), ("d300", "hot0")], ids=["from-hot", "to-hot"])
def test_deleting_a_similar_link_does_not_walk_a_drawers_near_copies(
    linked_graph: Any, ids: tuple[str, str]
) -> None:
    store = linked_graph
    hot = _work(store, "delete_similar", id=ids[0], other=ids[1])
    ordinary = _work(store, "delete_similar", id="a0", other="d300")
    assert hot <= ordinary + SLACK


@pytest.mark.parametrize(
    ("hot", "ordinary"),
    [
        pytest.param(("famous0", "e300"), ("x0", "e300"), id="from-hot"),
        pytest.param(("e300", "famous0"), ("e300", "x0"), id="to-hot"),
    ],
)
def test_settling_a_review_link_does_not_walk_an_entitys_links(
    linked_graph: Any, hot: tuple[str, str], ordinary: tuple[str, str]
) -> None:
    store = linked_graph

    def work(pair: tuple[str, str]) -> int:
        return _work(
            store,
            "settle_review_link",
            id=pair[0],
            other=pair[1],
            status="rejected",
            now="2026-01-01T00:00:00Z",
            alias=None,
            newer=pair[0],
            same_as=None,
            older=pair[1],
            spellings={},
        )

    assert work(hot) <= work(ordinary) + SLACK


def test_a_dedup_verdict_does_not_walk_a_drawers_verdicts(linked_graph: Any) -> None:
    store = linked_graph
    hot = _work(store, "set_dedup_verdict", a="hot0", b="d300", status="distinct", now="t")
    ordinary = _work(store, "set_dedup_verdict", a="a0", b="d300", status="distinct", now="t")
    assert hot <= ordinary + SLACK


@pytest.mark.parametrize(
    ("hot", "ordinary"),
    [
        pytest.param(("famous0", "e300"), ("x0", "e300"), id="from-hot"),
        pytest.param(("e300", "famous0"), ("e300", "x0"), id="to-hot"),
    ],
)
def test_reading_one_review_link_does_not_walk_an_entitys_links(
    linked_graph: Any, hot: tuple[str, str], ordinary: tuple[str, str]
) -> None:
    store = linked_graph
    work = _work(store, "review_link", id=hot[0], other=hot[1])
    assert work <= _work(store, "review_link", id=ordinary[0], other=ordinary[1]) + SLACK


def test_one_review_link_is_read_from_either_end(linked_graph: Any) -> None:
    store = linked_graph
    store.run_text("MATCH (e:Entity) SET e.name = e.id", {})

    def read(entity: str, other: str) -> list[tuple[str, bool]]:
        rows = store.read(lambda tx: tx.run("review_link", id=entity, other=other), use_case="test")
        return [(row["entity"]["name"], row["is_newer"]) for row in rows]

    assert read("e7", "famous0") == [("famous0", True)]
    assert read("famous0", "e7") == [("e7", False)]
    assert read("famous0", "e300") == []
