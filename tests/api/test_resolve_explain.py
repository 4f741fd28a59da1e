"""`POST /api/resolve` explains its decision (design §5.6): which lists know each word the guard
weighs, and per candidate whether it converged (the rule, the edit), got a review link (the
reason, the guard that blocked it) or neither. The decision's own fields stay as they were."""

from typing import Any

from fastapi.testclient import TestClient

from tests.support.entity_http import see_all


def dry_run(client: TestClient, name: str, kind: str) -> dict[str, Any]:
    response = client.post("/api/resolve", json={"name": name, "kind": kind})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert set(body) == {
        "decision", "rule", "confidence", "entity", "possibly_same_as", "evidence", "explain"
    }  # fmt: skip
    return body


def lists_of(body: dict[str, Any]) -> dict[str, dict[str, tuple[bool, bool]]]:
    return {
        word["word"]: {x["name"]: (x["knows"], x["consulted"]) for x in word["lists"]}
        for word in body["explain"]["words"]
    }


def test_a_typo_converges_and_says_which_edit(client: TestClient) -> None:
    [stored] = see_all(client, "tool", "Kubernetes")
    body = dry_run(client, "Kubernets", "tool")
    assert (body["decision"], body["rule"]) == ("same", "typo")
    [pair] = body["explain"]["pairs"]
    assert pair["entity"]["id"] == stored["entity"]["id"]
    assert (pair["outcome"], pair["rule"], pair["distance"], pair["blocked"]) == (
        "converged",
        "typo",
        1,
        None,
    )
    assert pair["edit"] == {"op": "insert", "position": 8, "removed": "", "added": "e"}
    assert pair["words"] == ["kubernets", "kubernetes"]
    assert "rule typo" in pair["why"]
    lists = lists_of(body)
    assert lists["kubernets"]["common words"] == (False, True)
    assert lists["kubernets"]["given names and surnames"] == (False, False)  # not a person
    assert body["explain"]["holds_people"] is False


def test_two_known_names_get_a_link_and_say_which_guard_blocked_them(client: TestClient) -> None:
    see_all(client, "person", "Maria Lopez")
    body = dry_run(client, "Mario Lopez", "person")
    assert (body["decision"], [x["reason"] for x in body["possibly_same_as"]]) == (
        "new",
        ["known_words"],
    )
    [pair] = body["explain"]["pairs"]
    assert (pair["outcome"], pair["reason"], pair["blocked"], pair["words"]) == (
        "review_link",
        "known_words",
        "known_words",
        ["mario", "maria"],
    )
    assert "'mario' and 'maria' are known words" in pair["why"]
    lists = lists_of(body)
    assert [w["word"] for w in body["explain"]["words"]] == ["mario", "lopez", "maria"]
    assert lists["mario"]["common words"] == (True, True)
    assert lists["maria"]["given names and surnames"] == (True, True)


def test_a_spelling_rule_says_which_rule(client: TestClient) -> None:
    see_all(client, "person", "Ada Lovelace")
    body = dry_run(client, "ADA LOVELACE", "person")
    assert (body["decision"], body["rule"]) == ("same", "normalized")
    [pair] = body["explain"]["pairs"]
    assert (pair["outcome"], pair["rule"], pair["why"]) == (
        "converged",
        "normalized",
        "rule normalized: the same key",
    )


def test_a_new_name_with_no_candidate_explains_its_words_only(client: TestClient) -> None:
    body = dry_run(client, "Jayden Okafor", "person")
    assert body["explain"]["pairs"] == []
    assert [w["word"] for w in body["explain"]["words"]] == ["jayden", "okafor"]
    assert set(lists_of(body)["jayden"]) == {
        "common words",
        "given names and surnames",
        "nicknames",
    }
