"""A drawer keeps one MENTIONS edge per entity, and every spelling its mentions used: a second
spelling of the entity in the same drawer (same batch or later, by any rule) joins the edge's
`spellings`, listed with the drawer's mention; repeats are kept once, first seen first, and at
most 32 per edge."""

import itertools

from fastapi.testclient import TestClient

from tests.support.entity_http import mentions_of, new_drawer, post_batch, see

MAX_SPELLINGS = 32


def test_a_second_spelling_in_one_batch_is_kept_on_the_one_edge(client: TestClient) -> None:
    drawer = new_drawer(client)
    first, second, repeat = post_batch(
        client,
        [
            {"drawer": drawer, "name": "Ada Lovelace", "kind": "person"},
            {"drawer": drawer, "name": "ada lovelace", "kind": "person"},
            {"drawer": drawer, "name": "Ada Lovelace", "kind": "person"},
        ],
    )
    assert first["entity"]["id"] == second["entity"]["id"] == repeat["entity"]["id"]
    assert [r["linked"] for r in (first, second, repeat)] == [True, False, False]
    [mention] = mentions_of(client, first["entity"]["id"])
    assert mention["drawer"] == drawer
    assert mention["observation"]["name"] == "Ada Lovelace"
    assert mention["spellings"] == ["Ada Lovelace", "ada lovelace"]


def test_later_spellings_join_a_stored_edge_whatever_rule_matched(client: TestClient) -> None:
    drawer, other = new_drawer(client), new_drawer(client)
    ada = see(client, drawer, "Ada Lovelace", "person")["entity"]["id"]
    see(client, other, "Ada Lovelace", "person")
    alias = client.post(f"/api/entities/{ada}/aliases", json={"alias": "Countess of Lovelace"})
    assert alias.status_code == 200, alias.text
    respelled = see(client, drawer, "Countess of Lovelace", "person")
    assert (respelled["entity"]["id"], respelled["linked"]) == (ada, False)
    assert respelled["observation"]["rule"] == "alias"
    single = client.post(
        f"/api/drawers/{drawer}/mentions", json={"name": "ADA LOVELACE", "kind": "person"}
    )
    assert single.status_code == 200, single.text
    see(client, drawer, "Countess of Lovelace", "person")  # a repeat: kept once
    by_drawer = {m["drawer"]: m for m in mentions_of(client, ada)}
    assert by_drawer[drawer]["spellings"] == [
        "Ada Lovelace",
        "Countess of Lovelace",
        "ADA LOVELACE",
    ]
    assert by_drawer[drawer]["observation"]["name"] == "Ada Lovelace"
    assert by_drawer[other]["spellings"] == ["Ada Lovelace"]  # another drawer's edge is its own


def test_an_edge_keeps_at_most_32_spellings_first_seen_first(client: TestClient) -> None:
    drawer = new_drawer(client)
    cases = itertools.product(*[(c.lower(), c.upper()) for c in "grace hopper"])
    spellings = list(dict.fromkeys("".join(chars) for chars in cases))[: MAX_SPELLINGS + 8]
    half = len(spellings) // 2
    post_batch(client, [{"drawer": drawer, "name": s, "kind": "person"} for s in spellings[:half]])
    results = post_batch(
        client, [{"drawer": drawer, "name": s, "kind": "person"} for s in spellings[half:]]
    )
    [mention] = mentions_of(client, results[0]["entity"]["id"])
    assert mention["spellings"] == spellings[:MAX_SPELLINGS]
