"""`GET /api/review-links`: the review links of the whole palace by status, best first, paged
(design §11, listing review links)."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.app import assert_envelope
from tests.support.entity_http import see_all

PAIRS = [
    ("person", "Maria Lopez", "Mario Lopez"),  # known_words, 1 - 1/11
    ("tool", "Python 3.11", "Python 3.12"),  # digit_edit, 1 - 1/10 (keys `python 311`)
    ("person", "Jon Snow", "John Snow"),  # known_words, 1 - 1/9
    ("person", "Maria", "Mario"),  # one_edit_short_key, 0.8
]


def linked(client: TestClient) -> dict[str, tuple[str, str]]:
    """Every pair of PAIRS seen in order: the newer name → (older id, newer id)."""
    pairs = {}
    for kind, older, newer in PAIRS:
        first, second = see_all(client, kind, older, newer)
        assert second["possibly_same_as"] == [first["entity"]["id"]]
        pairs[newer] = (first["entity"]["id"], second["entity"]["id"])
    return pairs


def listed(client: TestClient, **params: Any) -> dict[str, Any]:
    response = client.get("/api/review-links", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def ids(page: dict[str, Any]) -> list[tuple[str, str]]:
    return [(link["a"]["id"], link["b"]["id"]) for link in page["links"]]


def test_pending_links_by_similarity_then_ids(client: TestClient) -> None:
    pairs = linked(client)
    page = listed(client)
    assert page["next_cursor"] is None
    by_similarity = {link["b"]["name"]: link["similarity"] for link in page["links"]}
    assert by_similarity == {
        "Mario Lopez": pytest.approx(1 - 1 / 11),
        "Python 3.12": pytest.approx(0.9),
        "John Snow": pytest.approx(1 - 1 / 9),
        "Mario": pytest.approx(0.8),
    }
    expected = sorted(pairs.values(), key=lambda p: (-by_similarity[_newer(pairs, p)], p))
    assert ids(page) == expected
    first = page["links"][0]
    assert set(first) == {"a", "b", "reason", "similarity", "status", "created_at"}
    assert first["status"] == "pending"
    assert set(first["a"]) >= {"id", "name", "kind", "key", "aliases", "created_at"}
    snow = next(link for link in page["links"] if link["b"]["name"] == "John Snow")
    assert (snow["a"]["name"], snow["reason"]) == ("Jon Snow", "known_words")


def _newer(pairs: dict[str, tuple[str, str]], pair: tuple[str, str]) -> str:
    return next(name for name, found in pairs.items() if found == pair)


def test_pages_follow_the_cursor_without_repeats(client: TestClient) -> None:
    linked(client)
    whole = ids(listed(client))
    seen: list[tuple[str, str]] = []
    cursor = None
    for _ in range(len(whole) + 1):
        page = listed(client, limit=1, **({"cursor": cursor} if cursor else {}))
        seen.extend(ids(page))
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == whole and len(whole) == 4
    two = listed(client, limit=3)
    assert ids(two) == whole[:3] and two["next_cursor"] is not None
    assert ids(listed(client, limit=3, cursor=two["next_cursor"])) == whole[3:]


def test_filters_by_kind_reason_and_status(client: TestClient) -> None:
    pairs = linked(client)
    assert ids(listed(client, kind="Tool")) == [pairs["Python 3.12"]]
    assert ids(listed(client, reason="one_edit_short_key")) == [pairs["Mario"]]
    people = ids(listed(client, kind="person", reason="known_words"))
    assert sorted(people) == sorted([pairs["Mario Lopez"], pairs["John Snow"]])
    maria, mario = pairs["Mario"]
    settled = client.post(f"/api/entities/{mario}/candidates/{maria}", json={"verdict": "same"})
    assert settled.status_code == 200
    snow_older, snow_newer = pairs["John Snow"]
    path = f"/api/entities/{snow_older}/candidates/{snow_newer}"
    assert client.post(path, json={"verdict": "different"}).status_code == 200
    assert pairs["Mario"] not in ids(listed(client))
    assert len(ids(listed(client))) == 2
    same = listed(client, status="same")
    assert ids(same) == [pairs["Mario"]]
    assert same["links"][0]["status"] == "same"
    assert same["links"][0]["a"]["aliases"] == ["Mario"]
    assert ids(listed(client, status="different")) == [pairs["John Snow"]]
    client.post(f"/api/entities/{maria}/candidates/{mario}", json={"verdict": "different"})
    assert ids(listed(client, status="same")) == []
    assert sorted(ids(listed(client, status="different"))) == sorted(
        [pairs["Mario"], pairs["John Snow"]]
    )


def test_settled_links_of_an_entity_are_listed_on_request(client: TestClient) -> None:
    pairs = linked(client)
    maria, mario = pairs["Mario"]
    client.post(f"/api/entities/{mario}/candidates/{maria}", json={"verdict": "different"})
    assert client.get(f"/api/entities/{maria}/candidates").json() == []
    [settled] = client.get(f"/api/entities/{maria}/candidates", params={"status": "settled"}).json()
    assert (settled["entity"]["id"], settled["status"], settled["side"]) == (
        mario,
        "different",
        "newer",
    )


@pytest.mark.parametrize(
    ("params", "status"),
    [
        ({"status": "maybe"}, 422),
        ({"limit": 0}, 422),
        ({"cursor": "not-a-cursor"}, 400),
        ({"cursor": "WyJuYW4iLCAiYSIsICJiIl0="}, 400),  # ["nan", "a", "b"]
        ({"cursor": "WyJhIiwgImIiXQ=="}, 400),  # two parts
    ],
)
def test_bad_queries_are_refused(client: TestClient, params: dict[str, Any], status: int) -> None:
    response = client.get("/api/review-links", params=params)
    assert response.status_code == status
    assert_envelope(response.json(), "input::invalid")
