"""Nicknames over HTTP (design §5.3): a person whose given name is a listed nickname of a stored
person's, with the same surname key, gets a review link `nickname`, listed and filtered like any
other; it never converges, and kinds that hold no people get no link."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.entity_http import candidates, see_all

PAIRS = [("Robert Smith", "Bob Smith"), ("Liz", "Elizabeth"), ("Bill Turner", "William Turner")]


@pytest.mark.parametrize(("older", "newer"), PAIRS)
def test_a_nickname_pair_gets_a_review_link_never_a_convergence(
    client: TestClient, older: str, newer: str
) -> None:
    first, second = see_all(client, "person", older, newer)
    assert second["created"] is True
    assert second["observation"]["rule"] == "new"
    assert second["possibly_same_as"] == [first["entity"]["id"]]
    [link] = candidates(client, second["entity"]["id"])
    assert (link["entity"]["id"], link["reason"], link["similarity"], link["distance"]) == (
        first["entity"]["id"],
        "nickname",
        1.0,
        0,
    )
    [again] = see_all(client, "person", newer)  # its own entity from now on
    assert (again["observation"]["rule"], again["entity"]["id"]) == (
        "exact",
        second["entity"]["id"],
    )


def test_nickname_links_are_listed_and_filtered_by_reason(client: TestClient) -> None:
    see_all(client, "person", "Robert Smith", "Bob Smith", "Maria Lopez", "Mario Lopez")
    response = client.get("/api/review-links", params={"reason": "nickname"})
    assert response.status_code == 200, response.text
    links: list[dict[str, Any]] = response.json()["links"]
    assert [(x["a"]["name"], x["b"]["name"], x["reason"]) for x in links] == [
        ("Robert Smith", "Bob Smith", "nickname")
    ]


@pytest.mark.parametrize("kind", ["tool", "other"])
def test_kinds_that_hold_no_people_get_no_nickname_link(client: TestClient, kind: str) -> None:
    see_all(client, "person", "Robert Smith")
    see_all(client, "tool", "Robert Smith")
    [bob] = see_all(client, kind, "Bob Smith")
    assert (bob["observation"]["rule"], bob["possibly_same_as"]) == ("new", [])


def test_the_dry_run_explains_a_nickname_link(client: TestClient) -> None:
    [robert] = see_all(client, "person", "Robert Smith")
    response = client.post("/api/resolve", json={"name": "Bob Smith", "kind": "person"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert [(x["entity"]["id"], x["reason"]) for x in body["possibly_same_as"]] == [
        (robert["entity"]["id"], "nickname")
    ]
    explained = body["explain"]
    assert (explained["mention_key"], explained["holds_people"]) == ("bob smith", True)
    [pair] = explained["pairs"]
    assert {k: pair[k] for k in ("spelling", "outcome", "reason", "nickname")} == {
        "spelling": "Robert Smith",
        "outcome": "review_link",
        "reason": "nickname",
        "nickname": ["bob", "robert"],
    }
    assert "nickname pair" in pair["why"]
    lists = {w["word"]: {x["name"]: x["knows"] for x in w["lists"]} for w in explained["words"]}
    assert lists["bob"]["nicknames"] is True
    assert lists["robert"]["nicknames"] is True
    assert lists["smith"]["given names and surnames"] is True
