"""How spellings of one name converge, through the entity routes of the real app: the
spelling rules, kinds, and typos. The helpers and the story of the entity route tests are in
`tests/support/entity_http.py`.
"""

import pytest
from fastapi.testclient import TestClient

from tests.support.entity_http import (
    entity,
    named,
    new_drawer,
    see,
    see_all,
    verdict,
)

# --- rules 1-3: spelling -------------------------------------------------------------------------


def test_ada_lovelace_upper_case_is_the_same_entity_by_key(client: TestClient) -> None:
    first, second = see_all(client, "person", "Ada Lovelace", "ADA LOVELACE")
    assert verdict(first) == (True, "new", 1.0)
    assert verdict(second) == (False, "normalized", 0.98)
    assert second["entity"]["id"] == first["entity"]["id"]
    assert second["observation"]["name"] == "ADA LOVELACE"
    stored = entity(client, first["entity"]["id"])
    assert (stored["name"], stored["key"], stored["aliases"]) == (
        "Ada Lovelace",
        "ada lovelace",
        ["ADA LOVELACE"],
    )


def test_surrealdb_spellings_record_one_alias_once(client: TestClient) -> None:
    results = see_all(client, "tool", "SurrealDB", "surrealdb", "surrealdb")
    assert [verdict(r)[:2] for r in results] == [
        (True, "new"),
        (False, "normalized"),
        (False, "normalized"),
    ]
    assert len({r["entity"]["id"] for r in results}) == 1
    assert results[2]["entity"]["aliases"] == ["surrealdb"]
    stored = entity(client, results[0]["entity"]["id"])
    assert (stored["name"], stored["aliases"]) == ("SurrealDB", ["surrealdb"])


def test_node_js_spellings(client: TestClient) -> None:
    dotted, joined, spaced = see_all(client, "tool", "Node.js", "NodeJS", "Node JS")
    assert verdict(joined) == (False, "normalized", 0.98)
    assert joined["entity"]["id"] == dotted["entity"]["id"]
    # "node js" is one edit (an added space) from "nodejs": a typo, never blocked as two words
    assert verdict(spaced) == (False, "typo", pytest.approx(1 - 1 / 7))
    assert spaced["entity"]["id"] == dotted["entity"]["id"]
    assert entity(client, dotted["entity"]["id"])["aliases"] == ["NodeJS", "Node JS"]


def test_c_plus_plus_c_and_c_sharp_are_three_entities(client: TestClient) -> None:
    results = see_all(client, "language", "C++", "C", "C#")
    assert [r["created"] for r in results] == [True, True, True]
    assert len({r["entity"]["id"] for r in results}) == 3
    assert [r["possibly_same_as"] for r in results] == [[], [], []]
    keys = {(entity(client, r["entity"]["id"])["key"]) for r in results}
    assert keys == {"c++", "c", "c#"}


def test_cafe_with_and_without_accent_are_two_entities(client: TestClient) -> None:
    accented, plain = see_all(client, "place", "café", "cafe")
    assert plain["created"] is True
    assert plain["entity"]["id"] != accented["entity"]["id"]
    # four-letter keys one edit apart: not a typo, a review link (design §5.3)
    assert plain["possibly_same_as"] == [accented["entity"]["id"]]
    assert {e["id"] for e in named(client, "café")} == {accented["entity"]["id"]}
    assert {e["id"] for e in named(client, "cafe")} == {plain["entity"]["id"]}


def test_mention_names_are_trimmed(client: TestClient) -> None:
    first = see(client, new_drawer(client), "  Ada Lovelace \t", "person")
    second = see(client, new_drawer(client), "Ada Lovelace", "person")
    assert first["observation"]["name"] == "Ada Lovelace"
    assert first["entity"]["name"] == "Ada Lovelace"
    assert verdict(second) == (False, "exact", 1.0)
    assert second["entity"]["aliases"] == []


# --- kinds -------------------------------------------------------------------------------------


def test_an_unclassified_ada_joins_the_person(client: TestClient) -> None:
    person, other = see_all(client, "person", "Ada")[0], see_all(client, "other", "Ada")[0]
    assert verdict(other) == (False, "exact", 1.0)
    assert other["entity"]["id"] == person["entity"]["id"]
    assert other["entity"]["kind"] == "person"


def test_a_person_ada_never_joins_an_unclassified_ada(client: TestClient) -> None:
    other, person = see_all(client, "other", "Ada")[0], see_all(client, "Person ", "Ada")[0]
    assert person["created"] is True
    assert person["entity"]["id"] != other["entity"]["id"]
    assert person["entity"]["kind"] == "person"
    assert {(e["kind"], e["name"]) for e in named(client, "ada")} == {
        ("other", "Ada"),
        ("person", "Ada"),
    }


def test_another_kind_is_another_entity(client: TestClient) -> None:
    tool, person = see_all(client, "tool", "Ada")[0], see_all(client, "person", "Ada")[0]
    assert (tool["created"], person["created"]) == (True, True)
    assert tool["entity"]["id"] != person["entity"]["id"]
    assert [e["id"] for e in named(client, "Ada", kind="tool")] == [tool["entity"]["id"]]


def test_an_unclassified_mention_prefers_a_specific_kind(client: TestClient) -> None:
    other = see_all(client, "other", "Ada")[0]
    person = see_all(client, "person", "Ada")[0]
    again = see_all(client, "other", "ada")[0]
    assert verdict(again) == (False, "normalized", 0.98)
    assert again["entity"]["id"] == person["entity"]["id"] != other["entity"]["id"]


# --- rule 4: typos -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "canonical", "typo", "longer_key"),
    [
        ("tool", "Kubernetes", "Kubernets", 10),
        ("tool", "SurrealDB", "SurealDB", 9),
        ("person", "Maria Lopez", "Maeia Lopez", 11),
    ],
)
def test_a_typo_converges_on_the_one_candidate(
    client: TestClient, kind: str, canonical: str, typo: str, longer_key: int
) -> None:
    first, second = see_all(client, kind, canonical, typo)
    assert verdict(second) == (False, "typo", pytest.approx(1 - 1 / longer_key))
    assert second["entity"]["id"] == first["entity"]["id"]
    assert second["possibly_same_as"] == []
    stored = entity(client, first["entity"]["id"])
    assert (stored["name"], stored["aliases"]) == (canonical, [typo])


def test_kubernets_has_confidence_point_nine(client: TestClient) -> None:
    _, typo = see_all(client, "tool", "Kubernetes", "Kubernets")
    assert typo["observation"] == {"name": "Kubernets", "rule": "typo", "confidence": 0.9}


def test_zorvan_converges_on_zorvax_and_zorva_does_not_block(client: TestClient) -> None:
    _, zorvax, zorvan = see_all(client, "thing", "Zorva", "Zorvax", "Zorvan")
    assert verdict(zorvan) == (False, "typo", pytest.approx(1 - 1 / 6))
    assert zorvan["entity"]["id"] == zorvax["entity"]["id"]
