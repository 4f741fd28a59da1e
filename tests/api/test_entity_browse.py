"""Entities can be browsed without a name (design §11): `GET /api/entities?kind=` pages the
entities of a kind, and with neither `name` nor `kind` every entity, a cursor at a time, each
once (in the order of the database's index: the entity id on Neo4j, creation on FalkorDB);
with `name` the answer is what it was (its spellings' key by id, `kind` narrowing)."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.entity_http import new_drawer, post_batch

PEOPLE = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov"]
TOOLS = ["Kubernetes", "PostgreSQL", "Redis"]


def _seed(client: TestClient) -> dict[str, list[str]]:
    """The ids of the entities of each kind, sorted."""
    drawer = new_drawer(client)
    mentions = [{"drawer": drawer, "name": n, "kind": "person"} for n in PEOPLE]
    mentions += [{"drawer": drawer, "name": n, "kind": "tool"} for n in TOOLS]
    results = post_batch(client, mentions)
    ids: dict[str, list[str]] = {"person": [], "tool": []}
    for result in results:
        ids[result["entity"]["kind"]].append(result["entity"]["id"])
    return {kind: sorted(found) for kind, found in ids.items()}


def _pages(client: TestClient, **params: Any) -> list[list[dict[str, Any]]]:
    """Every page of `GET /api/entities` with `params`, following `next_cursor`."""
    pages: list[list[dict[str, Any]]] = []
    cursor: str | None = None
    for _ in range(20):
        query = {**params, **({"cursor": cursor} if cursor else {})}
        response = client.get("/api/entities", params=query)
        assert response.status_code == 200, response.text
        pages.append(response.json()["entities"])
        cursor = response.json()["next_cursor"]
        if cursor is None:
            return pages
    raise AssertionError("the pages never ended")


def test_the_entities_of_a_kind_page_by_id(client: TestClient) -> None:
    ids = _seed(client)
    pages = _pages(client, kind="person", limit=2)
    assert [len(page) for page in pages] == [2, 2, 1]
    listed = [e for page in pages for e in page]
    assert sorted(e["id"] for e in listed) == ids["person"]  # each once
    assert {e["name"] for e in listed} == set(PEOPLE)
    assert {e["kind"] for e in listed} == {"person"}
    assert all(e["key"] and e["created_at"] for e in listed)


def test_a_kind_is_compared_as_stored(client: TestClient) -> None:
    ids = _seed(client)
    [page] = _pages(client, kind="  Tool ")
    assert sorted(e["id"] for e in page) == ids["tool"]


def test_without_name_or_kind_every_entity_pages_by_id(client: TestClient) -> None:
    ids = _seed(client)
    pages = _pages(client, limit=3)
    assert [len(page) for page in pages] == [3, 3, 2]
    listed = [e["id"] for page in pages for e in page]
    assert sorted(listed) == sorted(ids["person"] + ids["tool"])


def test_a_kind_without_entities_is_an_empty_last_page(client: TestClient) -> None:
    _seed(client)
    assert _pages(client, kind="place") == [[]]


def test_an_empty_graph_is_an_empty_last_page(client: TestClient) -> None:
    assert _pages(client) == [[]]


def test_a_name_still_finds_its_spellings_only(client: TestClient) -> None:
    ids = _seed(client)
    [page] = _pages(client, name="ada  LOVELACE")
    assert [e["name"] for e in page] == ["Ada Lovelace"]
    assert page[0]["id"] in ids["person"]
    assert _pages(client, name="Ada Lovelace", kind="tool") == [[]]


def test_a_blank_name_is_still_refused(client: TestClient) -> None:
    response = client.get("/api/entities", params={"name": "  "})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "domain::empty_label"


def test_later_entities_join_the_pages_not_yet_read(client: TestClient) -> None:
    _seed(client)
    first = client.get("/api/entities", params={"kind": "person", "limit": 4}).json()
    drawer = new_drawer(client)
    post_batch(client, [{"drawer": drawer, "name": "Margaret Hamilton", "kind": "person"}])
    rest = _pages(client, kind="person", limit=4, cursor=first["next_cursor"])
    seen = [e["name"] for e in first["entities"]] + [e["name"] for p in rest for e in p]
    assert set(seen) - {"Margaret Hamilton"} == set(PEOPLE)  # she may sort before the cursor
    assert len(seen) == len(set(seen))


@pytest.mark.parametrize("cursor", ["bm90LWpzb24", "WyJ4Il0=", "WyItMSJd"], ids=str)
def test_a_forged_cursor_is_refused(client: TestClient, cursor: str) -> None:
    """Not base64 JSON; `["x"]`, no node id; `["-1"]`, no node id either."""
    response = client.get("/api/entities", params={"kind": "person", "cursor": cursor})
    if response.status_code == 200:  # Neo4j pages by entity id: any id text is a place to start
        assert cursor != "bm90LWpzb24"
        return
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "input::invalid"
