"""Review links between look-alike names, and the curation that settles them (aliases and
verdicts), through the entity routes of the real app."""

import pytest
from fastapi.testclient import TestClient

from tests.support.app import assert_envelope
from tests.support.entity_http import (
    candidates,
    entity,
    named,
    see_all,
    seed_entity,
    verdict,
)

# --- review links ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "older", "newer", "reason"),
    [
        ("person", "Maria Lopez", "Mario Lopez", "known_words"),
        ("person", "Jon Snow", "John Snow", "known_words"),
        ("person", "Marian", "Marion", "known_words"),
        ("tool", "Python 3.11", "Python 3.12", "digit_edit"),
        ("ticket", "SR-2023-052", "SR-2023-053", "digit_edit"),
        ("person", "Maria", "Mario", "one_edit_short_key"),
        ("person", "Sandra Miller", "Sondra Miller", "known_words"),  # `sondra`: a name only
    ],
)
def test_two_names_get_a_new_entity_and_a_review_link(
    client: TestClient, kind: str, older: str, newer: str, reason: str
) -> None:
    first, second = see_all(client, kind, older, newer)
    assert verdict(second) == (True, "new", 1.0)
    old_id, new_id = first["entity"]["id"], second["entity"]["id"]
    assert new_id != old_id
    assert second["possibly_same_as"] == [old_id]
    [seen_from_new] = candidates(client, new_id)
    assert (seen_from_new["entity"]["id"], seen_from_new["side"]) == (old_id, "older")
    assert (seen_from_new["distance"], seen_from_new["reason"]) == (1, reason)
    [seen_from_old] = candidates(client, old_id)
    assert (seen_from_old["entity"]["id"], seen_from_old["side"]) == (new_id, "newer")
    assert seen_from_old["similarity"] == seen_from_new["similarity"]


@pytest.mark.parametrize(
    ("older", "newer"), [("Sandra Miller", "Sondra Miller"), ("Anna Kołak", "Anna Kołpak")]
)
def test_given_names_guard_only_kinds_that_hold_people(
    client: TestClient, older: str, newer: str
) -> None:
    """`sondra` is in the name lists, not the word list, and a tool needs no known spelling to
    converge onto: on a tool both pairs are typos."""
    first, second = see_all(client, "tool", older, newer)
    assert second["entity"]["id"] == first["entity"]["id"]
    assert second["observation"]["rule"] == "typo"


def test_on_people_a_typo_converges_onto_a_known_name(client: TestClient) -> None:
    """`Sandra Millr` after `Sandra Miller`: a rare spelling of a known name is a typo."""
    first, second = see_all(client, "person", "Sandra Miller", "Sandra Millr")
    assert second["entity"]["id"] == first["entity"]["id"]
    assert second["observation"]["rule"] == "typo"


@pytest.mark.parametrize(
    ("older", "newer"), [("v2", "v3"), ("Ann", "Ana"), ("C", "C#"), ("C#", "C")]
)
def test_short_look_alikes_get_no_link(client: TestClient, older: str, newer: str) -> None:
    first, second = see_all(client, "thing", older, newer)
    assert second["created"] is True and second["entity"]["id"] != first["entity"]["id"]
    assert second["possibly_same_as"] == []
    assert candidates(client, first["entity"]["id"]) == []


def test_at_most_five_review_links_by_similarity_then_id(client: TestClient) -> None:
    looks = see_all(client, "person", "Mario", "Marie", "Marta", "Marna", "Marka", "Maira")
    maria = see_all(client, "person", "Maria")[0]
    assert maria["created"] is True
    assert maria["possibly_same_as"] == sorted(r["entity"]["id"] for r in looks)[:5]
    dry = client.post("/api/resolve", json={"name": "MARIA", "kind": "person"}).json()
    assert dry["rule"] == "normalized"


def test_johnsen_posted_after_johnson_is_another_surname(client: TestClient) -> None:
    """Both are surnames of the name lists: two people, not a typo (a word list alone knows
    only `johnson`, and `Johnsen` converged on it)."""
    johnson, johnsen = see_all(client, "person", "Johnson", "Johnsen")
    assert verdict(johnsen) == (True, "new", 1.0)
    assert johnsen["possibly_same_as"] == [johnson["entity"]["id"]]


def test_johnsen_of_a_kind_without_people_is_a_typo(client: TestClient) -> None:
    johnson, johnsen = see_all(client, "company", "Johnson", "Johnsen")
    assert verdict(johnsen) == (False, "typo", pytest.approx(1 - 1 / 7))
    assert johnsen["entity"]["id"] == johnson["entity"]["id"]


def test_johnsin_is_new_and_linked_to_johnson_and_johnsen(client: TestClient) -> None:
    older = sorted(seed_entity(client, name, "person") for name in ("Johnson", "Johnsen"))
    johnsin = see_all(client, "person", "Johnsin")[0]
    assert verdict(johnsin) == (True, "new", 1.0)
    assert johnsin["possibly_same_as"] == older  # equal similarity: by id
    found = candidates(client, johnsin["entity"]["id"])
    assert [(c["entity"]["id"], c["side"], c["reason"]) for c in found] == [
        (older[0], "older", "ambiguous_typo"),
        (older[1], "older", "ambiguous_typo"),
    ]


def test_katerina_is_new_with_two_links(client: TestClient) -> None:
    katarina, katerino, katerina = see_all(client, "person", "Katarina", "Katerino", "Katerina")
    assert verdict(katerina) == (True, "new", 1.0)
    assert set(katerina["possibly_same_as"]) == {katarina["entity"]["id"], katerino["entity"]["id"]}
    assert len(candidates(client, katerina["entity"]["id"])) == 2


def test_review_links_are_listed_by_similarity_then_id(client: TestClient) -> None:
    one_edit = see_all(client, "person", "Katarina", "Katerino")
    two_edits = see_all(client, "person", "Katrin")[0]  # "katrin" / "katerina": 2 edits, 0.75
    assert two_edits["created"] is True
    katerina = see_all(client, "person", "Katerina")[0]
    expected = [*sorted(r["entity"]["id"] for r in one_edit), two_edits["entity"]["id"]]
    assert katerina["possibly_same_as"] == expected
    found = candidates(client, katerina["entity"]["id"])
    assert [(c["entity"]["id"], c["distance"], c["similarity"]) for c in found] == [
        (expected[0], 1, 0.875),
        (expected[1], 1, 0.875),
        (expected[2], 2, 0.75),
    ]
    assert found[2]["reason"] == "two_edits"


# --- curation ----------------------------------------------------------------------------------


def test_an_alias_recorded_by_a_person_makes_later_sightings_converge(client: TestClient) -> None:
    ibm = see_all(client, "org", "International Business Machines")[0]["entity"]
    response = client.post(f"/api/entities/{ibm['id']}/aliases", json={"alias": " IBM "})
    assert response.status_code == 200
    assert (response.json()["name"], response.json()["aliases"]) == (
        "International Business Machines",
        ["IBM"],
    )
    later = see_all(client, "org", "IBM")[0]
    assert verdict(later) == (False, "alias", 0.95)
    assert later["entity"]["id"] == ibm["id"]
    assert [e["id"] for e in named(client, "ibm")] == [ibm["id"]]


def test_an_alias_equal_to_the_name_or_already_known_is_a_no_op(client: TestClient) -> None:
    ada = see_all(client, "person", "Ada Lovelace")[0]["entity"]
    path = f"/api/entities/{ada['id']}/aliases"
    assert client.post(path, json={"alias": "Ada Lovelace"}).json()["aliases"] == []
    assert client.post(path, json={"alias": "Countess"}).json()["aliases"] == ["Countess"]
    again = client.post(path, json={"alias": "Countess"})
    assert (again.status_code, again.json()["aliases"]) == (200, ["Countess"])
    assert entity(client, ada["id"])["aliases"] == ["Countess"]


def test_a_same_verdict_records_the_newer_name_on_the_older(client: TestClient) -> None:
    older, newer = (r["entity"]["id"] for r in see_all(client, "person", "Maria", "Mario"))
    response = client.post(f"/api/entities/{newer}/candidates/{older}", json={"verdict": "same"})
    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["name"], body["aliases"]) == (older, "Maria", ["Mario"])
    assert candidates(client, older) == []
    assert candidates(client, newer) == []
    assert entity(client, newer)["name"] == "Mario"  # nothing is merged


def test_after_a_same_verdict_later_sightings_converge_by_alias(client: TestClient) -> None:
    older, newer = (r["entity"]["id"] for r in see_all(client, "person", "Maria", "Mario"))
    client.post(f"/api/entities/{older}/candidates/{newer}", json={"verdict": "same"})
    later = see_all(client, "person", "MARIO")[0]
    rule = later["observation"]["rule"], later["observation"]["confidence"]
    assert (later["entity"]["id"], *rule) == (older, "alias", 0.95), (newer, later)


def test_a_different_verdict_closes_the_link_on_both_sides(client: TestClient) -> None:
    older, newer = (r["entity"]["id"] for r in see_all(client, "person", "Marian", "Marion"))
    response = client.post(
        f"/api/entities/{older}/candidates/{newer}", json={"verdict": "different"}
    )
    assert response.status_code == 200
    assert (response.json()["id"], response.json()["aliases"]) == (older, [])
    assert candidates(client, older) == []
    assert candidates(client, newer) == []
    assert entity(client, newer)["aliases"] == []


def test_settling_a_pair_without_a_link(client: TestClient) -> None:
    a, b = (r["entity"]["id"] for r in see_all(client, "person", "Ada", "Grace"))
    response = client.post(f"/api/entities/{a}/candidates/{b}", json={"verdict": "same"})
    assert response.status_code == 404
    assert_envelope(response.json(), "graph::review_link_not_found")
    unknown = client.post(f"/api/entities/{a}/candidates/nope", json={"verdict": "same"})
    assert unknown.status_code == 404
    assert_envelope(unknown.json(), "graph::entity_not_found")
    bad = client.post(f"/api/entities/{a}/candidates/{b}", json={"verdict": "maybe"})
    assert bad.status_code == 422
    assert_envelope(bad.json(), "input::invalid")
