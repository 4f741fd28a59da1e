"""Mentions through the entity routes of the real app: their provenance, their order, and how
a batch resolves (in order, repeats included, idempotent when posted again)."""

import pytest
from fastapi.testclient import TestClient

from tests.support.entity_http import (
    candidates,
    entity,
    mentions_of,
    new_drawer,
    post_batch,
    see,
    snapshot,
    verdict,
)


def test_provenance_round_trips_on_the_mentions_route(client: TestClient) -> None:
    drawer = new_drawer(client)
    origin = {"document": "doc-7", "chunk": 3, "score": 0.5, "reviewed": True}
    result = see(
        client,
        drawer,
        "Ada Lovelace",
        "person",
        extractor="llm-v1",
        origin=origin,
        job_id="job-42",
        extracted_at="2024-05-01T12:00:00Z",
    )
    [mention] = mentions_of(client, result["entity"]["id"])
    assert mention["drawer"] == drawer
    assert mention["observation"] == {"name": "Ada Lovelace", "rule": "new", "confidence": 1.0}
    assert mention["provenance"] == {
        "extractor": "llm-v1",
        "origin": origin,
        "job_id": "job-42",
        "extracted_at": "2024-05-01T12:00:00Z",
    }
    assert mention["created_at"].endswith("Z")


def test_provenance_is_empty_when_not_given(client: TestClient) -> None:
    result = see(client, new_drawer(client), "Ada Lovelace", "person")
    [mention] = mentions_of(client, result["entity"]["id"])
    assert mention["provenance"] == {
        "extractor": None,
        "origin": {},
        "job_id": None,
        "extracted_at": None,
    }


def test_mentions_are_listed_newest_first(client: TestClient) -> None:
    drawers = [new_drawer(client) for _ in range(3)]
    ids = {see(client, d, "Ada Lovelace", "person")["entity"]["id"] for d in drawers}
    [entity_id] = ids
    listed = mentions_of(client, entity_id)
    assert [m["drawer"] for m in listed] == drawers[::-1]
    stamps = [m["created_at"] for m in listed]
    assert stamps == sorted(stamps, reverse=True)


def test_a_second_spelling_in_the_same_drawer_keeps_the_first_observation(
    client: TestClient,
) -> None:
    drawer = new_drawer(client)
    first = see(client, drawer, "Ada Lovelace", "person")
    second = see(client, drawer, "ADA LOVELACE", "person")
    assert (first["linked"], second["linked"]) == (True, False)
    assert second["entity"]["id"] == first["entity"]["id"]
    [mention] = mentions_of(client, first["entity"]["id"])
    assert mention["observation"] == {"name": "Ada Lovelace", "rule": "new", "confidence": 1.0}


def test_one_drawer_mention_route_answers_201_then_200(client: TestClient) -> None:
    drawer = new_drawer(client)
    path = f"/api/drawers/{drawer}/mentions"
    first = client.post(path, json={"name": "Ada Lovelace", "kind": "person"})
    second = client.post(path, json={"name": "ada lovelace", "kind": "person"})
    assert (first.status_code, first.json()["linked"], first.json()["created"]) == (201, True, True)
    assert (second.status_code, second.json()["linked"]) == (200, False)
    assert second.json()["observation"]["rule"] == "normalized"
    assert second.json()["entity"]["id"] == first.json()["entity"]["id"]


def test_results_follow_the_batch_order_with_repeats(client: TestClient) -> None:
    drawer, other = new_drawer(client), new_drawer(client)
    results = post_batch(
        client,
        [
            {"drawer": drawer, "name": "Grace Hopper", "kind": "person"},
            {"drawer": drawer, "name": "COBOL", "kind": "language"},
            {"drawer": drawer, "name": "Grace Hopper", "kind": "person"},
            {"drawer": other, "name": "grace hopper", "kind": "person"},
        ],
    )
    grace = results[0]["entity"]["id"]
    assert [(r["entity"]["id"] == grace, r["created"], r["linked"]) for r in results] == [
        (True, True, True),
        (False, True, True),
        (True, False, False),
        (True, False, True),
    ]
    assert [r["observation"]["rule"] for r in results] == ["new", "new", "exact", "normalized"]
    assert results[3]["entity"]["aliases"] == ["grace hopper"]
    assert {m["drawer"] for m in mentions_of(client, grace)} == {drawer, other}


def test_a_look_alike_later_in_the_same_batch_links_to_the_earlier_one(
    client: TestClient,
) -> None:
    drawer = new_drawer(client)
    maria, mario = post_batch(
        client,
        [
            {"drawer": drawer, "name": "Maria", "kind": "person"},
            {"drawer": drawer, "name": "Mario", "kind": "person"},
        ],
    )
    assert (maria["created"], mario["created"]) == (True, True)
    assert mario["possibly_same_as"] == [maria["entity"]["id"]]
    [link] = candidates(client, mario["entity"]["id"])
    assert (link["entity"]["id"], link["side"]) == (maria["entity"]["id"], "older")


def test_a_typo_and_its_respelling_converge_within_one_batch(client: TestClient) -> None:
    drawer = new_drawer(client)
    results = post_batch(
        client,
        [
            {"drawer": drawer, "name": "Kubernetes", "kind": "tool"},
            {"drawer": drawer, "name": "Kubernets", "kind": "tool"},
            {"drawer": drawer, "name": "KUBERNETS", "kind": "tool"},
        ],
    )
    assert [verdict(r) for r in results] == [
        (True, "new", 1.0),
        (False, "typo", 0.9),
        (False, "alias", 0.95),
    ]
    assert len({r["entity"]["id"] for r in results}) == 1
    assert [r["linked"] for r in results] == [True, False, False]
    stored = entity(client, results[0]["entity"]["id"])
    assert stored["aliases"] == ["Kubernets", "KUBERNETS"]


@pytest.mark.parametrize(
    ("kinds", "same"), [(("person", "other"), True), (("other", "person"), False)]
)
def test_kinds_within_one_batch(client: TestClient, kinds: tuple[str, str], same: bool) -> None:
    drawer = new_drawer(client)
    first, second = post_batch(
        client, [{"drawer": drawer, "name": "Ada", "kind": kind} for kind in kinds]
    )
    assert first["created"] is True
    assert second["created"] is not same
    assert (second["entity"]["id"] == first["entity"]["id"]) is same
    assert second["entity"]["kind"] == "person"


def test_the_same_batch_posted_twice_changes_nothing_the_second_time(client: TestClient) -> None:
    drawers = [new_drawer(client), new_drawer(client)]
    see(client, drawers[0], "Maria", "person")
    batch = [
        {"drawer": d, "name": name, "kind": kind, "extractor": "x", "origin": {"chunk": i}}
        for i, (name, kind) in enumerate(
            [
                ("Ada Lovelace", "person"),
                ("ADA LOVELACE", "person"),
                ("Mario", "person"),
                ("Kubernetes", "tool"),
                ("Kubernets", "tool"),
            ]
        )
        for d in drawers
    ]
    first = post_batch(client, batch)
    before = snapshot(client)
    second = post_batch(client, batch)
    assert snapshot(client) == before
    assert [r["entity"]["id"] for r in second] == [r["entity"]["id"] for r in first]
    assert {(r["created"], r["linked"]) for r in second} == {(False, False)}
    assert [r["possibly_same_as"] for r in second] == [[]] * len(batch)
