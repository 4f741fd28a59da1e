"""The entity routes through HTTP against the real app and its embedded database.

Every example of DESIGN §5 and §11 is posted as an extractor would post it; the answers are
checked on the response and, where the contract says something is stored, read back.
"""

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import app_settings
from fastapi.testclient import TestClient

from api.http.app import create_app
from graph.records import Entity
from resolver.entity_model import EntityView

Snapshot = tuple[frozenset[tuple[Any, ...]], ...]


# --- helpers ------------------------------------------------------------------------------------


def new_drawer(client: TestClient) -> str:
    """A fresh drawer to mention (unique content, so never an exact copy)."""
    content = f"meeting notes {uuid.uuid4()}"
    response = client.post("/api/wings/work/rooms/notes/drawers", json={"content": content})
    assert response.status_code == 201, response.text
    drawer_id: str = response.json()["drawer"]["id"]
    return drawer_id


def post_batch(client: TestClient, mentions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    response = client.post("/api/mentions", json={"mentions": mentions})
    assert response.status_code == 200, response.text
    results: list[dict[str, Any]] = response.json()["results"]
    assert len(results) == len(mentions)
    return results


def see(client: TestClient, drawer: str, name: str, kind: str, **extra: Any) -> dict[str, Any]:
    """Post one mention in a batch of one; its result."""
    [result] = post_batch(client, [{"drawer": drawer, "name": name, "kind": kind, **extra}])
    return result


def see_all(client: TestClient, kind: str, *names: str) -> list[dict[str, Any]]:
    """Post each name in its own batch (in order), each in a fresh drawer."""
    return [see(client, new_drawer(client), name, kind) for name in names]


def entity(client: TestClient, entity_id: str) -> dict[str, Any]:
    response = client.get(f"/api/entities/{entity_id}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def named(client: TestClient, name: str, **params: Any) -> list[dict[str, Any]]:
    response = client.get("/api/entities", params={"name": name, **params})
    assert response.status_code == 200, response.text
    entities: list[dict[str, Any]] = response.json()["entities"]
    return entities


def candidates(client: TestClient, entity_id: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/entities/{entity_id}/candidates")
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()
    return found


def mentions_of(client: TestClient, entity_id: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/entities/{entity_id}/mentions")
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()
    return found


def verdict(r: dict[str, Any]) -> tuple[bool, str, float]:
    """(created, rule, confidence) of one mention result."""
    return r["created"], r["observation"]["rule"], r["observation"]["confidence"]


def assert_envelope(response_body: Any, code: str) -> None:
    assert set(response_body) == {"error"}
    assert response_body["error"]["code"] == code
    assert response_body["error"]["message"]
    assert "details" in response_body["error"]


def snapshot(client: TestClient) -> Snapshot:
    """Every entity, MENTIONS and POSSIBLY_SAME_AS edge with all its properties."""
    store = client.app.state.runtime.store  # type: ignore[attr-defined]

    def rows(text: str) -> frozenset[tuple[Any, ...]]:
        return frozenset(
            tuple(
                tuple(sorted((k, _hashable(v)) for k, v in value.items()))
                if isinstance(value, dict)
                else value
                for value in row.values()
            )
            for row in store.run_text(text, {})
        )

    return (
        rows("MATCH (e:Entity) RETURN properties(e) AS e"),
        rows("MATCH (d:Drawer)-[m:MENTIONS]->(e:Entity) RETURN d.id, e.id, properties(m) AS m"),
        rows("MATCH (a:Entity)-[l:POSSIBLY_SAME_AS]->(b:Entity) RETURN a.id, b.id, properties(l)"),
    )


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def seed_entity(client: TestClient, name: str, kind: str) -> str:
    """Store an entity directly, with the properties resolution would give it; its id."""
    store = client.app.state.runtime.store  # type: ignore[attr-defined]
    view = EntityView.of(str(uuid.uuid4()), name, kind)
    props = Entity(view, "2024-01-01T00:00:00.000000Z").to_props(store.dialect)
    store.run_text("CREATE (e:Entity) SET e = $props", {"props": props})
    return view.id


def entity_count(client: TestClient) -> int:
    store = client.app.state.runtime.store  # type: ignore[attr-defined]
    [row] = store.run_text("MATCH (e:Entity) RETURN count(e) AS n", {})
    n: int = row["n"]
    return n


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
    # four-letter keys one edit apart: not a typo, a review link (DESIGN §5.3)
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


def test_johnsen_posted_after_johnson_is_a_typo_of_it(client: TestClient) -> None:
    johnson, johnsen = see_all(client, "person", "Johnson", "Johnsen")
    assert verdict(johnsen) == (False, "typo", pytest.approx(1 - 1 / 7))
    assert johnsen["entity"]["id"] == johnson["entity"]["id"]


def test_johnsin_is_new_and_linked_to_johnson_and_johnsen(client: TestClient) -> None:
    # Through the API "Johnsen" would converge on "Johnson" (test above): seed both as existing.
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


# --- dry run -----------------------------------------------------------------------------------


def test_the_dry_run_answers_a_typo_and_writes_nothing(client: TestClient) -> None:
    k8s = see_all(client, "tool", "Kubernetes")[0]["entity"]
    before = snapshot(client)
    response = client.post("/api/resolve", json={"name": "Kubernets", "kind": "tool"})
    assert response.status_code == 200
    body = response.json()
    assert (body["decision"], body["rule"], body["confidence"]) == ("same", "typo", 0.9)
    assert (body["entity"]["id"], body["entity"]["aliases"]) == (k8s["id"], [])
    assert body["possibly_same_as"] == []
    assert body["evidence"]["rule"] == "typo"
    assert named(client, "Kubernets") == []
    assert entity(client, k8s["id"])["aliases"] == []
    assert snapshot(client) == before


def test_the_dry_run_of_a_new_name_creates_nothing(client: TestClient) -> None:
    maria = see_all(client, "person", "Maria")[0]["entity"]
    count = entity_count(client)
    body = client.post("/api/resolve", json={"name": "Mario", "kind": "person"}).json()
    assert (body["decision"], body["rule"], body["entity"]) == ("new", "new", None)
    [link] = body["possibly_same_as"]
    assert (link["entity"]["id"], link["similarity"], link["distance"], link["reason"]) == (
        maria["id"],
        0.8,
        1,
        "one_edit_short_key",
    )
    assert named(client, "Mario") == []
    assert entity_count(client) == count
    assert candidates(client, maria["id"]) == []


# --- mentions, provenance, batches -------------------------------------------------------------


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


# --- paging ------------------------------------------------------------------------------------


def test_entities_by_name_are_paged_by_id_and_filtered_by_kind(client: TestClient) -> None:
    kinds = ["person", "tool", "place", "ship"]
    ids = sorted(see_all(client, kind, "Ada")[0]["entity"]["id"] for kind in kinds)
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"name": "ADA", "limit": 2}
        if cursor:
            params["cursor"] = cursor
        page = client.get("/api/entities", params=params).json()
        seen += [e["id"] for e in page["entities"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == ids
    assert [e["kind"] for e in named(client, "ada", kind=" Ship ")] == ["ship"]


def test_entities_by_name_find_aliases(client: TestClient) -> None:
    ada = see_all(client, "person", "Ada Lovelace")[0]["entity"]
    client.post(f"/api/entities/{ada['id']}/aliases", json={"alias": "Countess of Lovelace"})
    found = named(client, "countess-of-lovelace")
    assert [(e["id"], e["key"]) for e in found] == [(ada["id"], "ada lovelace")]
    assert set(found[0]) == {"id", "name", "kind", "key", "aliases", "created_at"}


# --- entity_fuzzy = false ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def strict_app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    data_dir: Path = tmp_path_factory.mktemp("strict-service")
    app = create_app(app_settings(data_dir, dedup={"entity_fuzzy": False}))
    with TestClient(app) as c:
        yield c


@pytest.fixture
def strict(strict_app_client: TestClient) -> TestClient:
    strict_app_client.app.state.runtime.store.wipe()  # type: ignore[attr-defined]
    return strict_app_client


def test_without_fuzzy_a_typo_is_a_new_entity_with_no_link(strict: TestClient) -> None:
    first, second = see_all(strict, "tool", "Kubernetes", "Kubernets")
    assert verdict(second) == (True, "new", 1.0)
    assert second["entity"]["id"] != first["entity"]["id"]
    assert second["possibly_same_as"] == []
    assert candidates(strict, first["entity"]["id"]) == []


@pytest.mark.parametrize(("older", "newer"), [("Maria", "Mario"), ("Johnson", "Johnsin")])
def test_without_fuzzy_no_review_link_is_made(strict: TestClient, older: str, newer: str) -> None:
    first, second = see_all(strict, "person", older, newer)
    assert (second["created"], second["possibly_same_as"]) == (True, [])
    assert candidates(strict, first["entity"]["id"]) == []


def test_without_fuzzy_the_dry_run_finds_no_typo(strict: TestClient) -> None:
    see_all(strict, "tool", "Kubernetes")
    body = strict.post("/api/resolve", json={"name": "Kubernets", "kind": "tool"}).json()
    assert (body["decision"], body["entity"], body["possibly_same_as"]) == ("new", None, [])


def test_without_fuzzy_the_spelling_rules_still_apply(strict: TestClient) -> None:
    first, exact, normalized = see_all(strict, "person", "Ada Lovelace", "Ada Lovelace", "ADA")
    assert verdict(exact) == (False, "exact", 1.0)
    assert normalized["created"] is True  # "ada" is another key
    upper = see_all(strict, "person", "ADA LOVELACE")[0]
    assert verdict(upper) == (False, "normalized", 0.98)
    entity_id = first["entity"]["id"]
    strict.post(f"/api/entities/{entity_id}/aliases", json={"alias": "Countess of Lovelace"})
    alias = see_all(strict, "person", "countess of lovelace")[0]
    assert verdict(alias) == (False, "alias", 0.95)
    assert {upper["entity"]["id"], alias["entity"]["id"]} == {entity_id}


# --- errors ------------------------------------------------------------------------------------


def test_a_batch_with_an_unknown_drawer_is_refused_whole(client: TestClient) -> None:
    drawer = new_drawer(client)
    response = client.post(
        "/api/mentions",
        json={
            "mentions": [
                {"drawer": drawer, "name": "Ada Lovelace", "kind": "person"},
                {"drawer": "no-such-drawer", "name": "Grace Hopper", "kind": "person"},
            ]
        },
    )
    assert response.status_code == 422
    body = response.json()
    assert_envelope(body, "input::invalid")
    assert [d["index"] for d in body["error"]["details"]] == [1]
    assert body["error"]["details"][0]["drawer"] == "no-such-drawer"
    assert entity_count(client) == 0
    assert named(client, "Ada Lovelace") == []


@pytest.mark.parametrize(("field", "index"), [("name", 1), ("kind", 2)])
def test_a_blank_name_or_kind_is_an_empty_label(client: TestClient, field: str, index: int) -> None:
    drawer = new_drawer(client)
    batch = [{"drawer": drawer, "name": f"Name {i}", "kind": "person"} for i in range(3)]
    batch[index][field] = " \t "
    response = client.post("/api/mentions", json={"mentions": batch})
    assert response.status_code == 400
    body = response.json()
    assert_envelope(body, "domain::empty_label")
    assert body["error"]["details"]["index"] == index
    assert entity_count(client) == 0


def test_a_blank_name_on_the_single_mention_route(client: TestClient) -> None:
    response = client.post(
        f"/api/drawers/{new_drawer(client)}/mentions", json={"name": "", "kind": "x"}
    )
    assert response.status_code == 400
    assert_envelope(response.json(), "domain::empty_label")
    assert entity_count(client) == 0


def test_a_batch_over_the_maximum_is_too_large(client: TestClient) -> None:
    drawer = new_drawer(client)
    batch = [{"drawer": drawer, "name": f"Name {i}", "kind": "person"} for i in range(1001)]
    response = client.post("/api/mentions", json={"mentions": batch})
    assert response.status_code == 413
    assert_envelope(response.json(), "payload::too_large")
    assert entity_count(client) == 0


def test_a_batch_of_exactly_the_maximum_is_accepted(client: TestClient) -> None:
    drawer = new_drawer(client)
    batch = [{"drawer": drawer, "name": f"Name {i}", "kind": "person"} for i in range(1000)]
    results = post_batch(client, batch)
    assert sum(r["created"] for r in results) == 1000
    assert entity_count(client) == 1000


@pytest.mark.parametrize(
    "overrides",
    [
        {"name": "n" * 201},
        {"kind": "k" * 201},
        {"unknown": 1},
        {"origin": {"Bad-Key": 1}},
        {"origin": {"nested": {"a": 1}}},
    ],
)
def test_invalid_mentions_are_422_and_write_nothing(
    client: TestClient, overrides: dict[str, Any]
) -> None:
    drawer = new_drawer(client)
    batch = [
        {"drawer": drawer, "name": "Ada Lovelace", "kind": "person"},
        {"drawer": drawer, "name": "Grace Hopper", "kind": "person", **overrides},
    ]
    response = client.post("/api/mentions", json={"mentions": batch})
    assert response.status_code == 422
    body = response.json()
    assert_envelope(body, "input::invalid")
    assert any(1 in d["loc"] for d in body["error"]["details"])
    assert entity_count(client) == 0


def test_a_name_of_200_characters_is_accepted(client: TestClient) -> None:
    result = see(client, new_drawer(client), "n" * 200, "person")
    assert result["created"] is True


def test_unknown_drawer_on_the_single_mention_route(client: TestClient) -> None:
    response = client.post("/api/drawers/nope/mentions", json={"name": "Ada", "kind": "person"})
    assert response.status_code == 404
    assert_envelope(response.json(), "palace::drawer_not_found")
    assert entity_count(client) == 0


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/api/entities/nope", None),
        ("GET", "/api/entities/nope/mentions", None),
        ("GET", "/api/entities/nope/candidates", None),
        ("POST", "/api/entities/nope/aliases", {"alias": "Ada"}),
        ("POST", "/api/entities/nope/aliases", {"alias": "   "}),
        ("POST", "/api/entities/nope/candidates/other", {"verdict": "same"}),
    ],
)
def test_unknown_entity_routes(
    client: TestClient, method: str, path: str, body: dict[str, Any] | None
) -> None:
    response = client.request(method, path, json=body)
    assert response.status_code == 404, path
    assert_envelope(response.json(), "graph::entity_not_found")


def test_a_blank_alias_is_an_empty_label(client: TestClient) -> None:
    ada = see_all(client, "person", "Ada Lovelace")[0]["entity"]
    response = client.post(f"/api/entities/{ada['id']}/aliases", json={"alias": " "})
    assert response.status_code == 400
    assert_envelope(response.json(), "domain::empty_label")
    assert entity(client, ada["id"])["aliases"] == []


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/api/mentions", {"mentions": [{"name": "Ada\u0000Lovelace", "kind": "person"}]}),
        ("POST", "/api/mentions", {"mentions": [{"name": "Ada", "kind": "per\u0000son"}]}),
        ("POST", "/api/resolve", {"name": "Ada\u0000Lovelace", "kind": "person"}),
        ("GET", "/api/entities?name=Ada%00Lovelace", None),
    ],
)
def test_a_nul_character_is_never_a_server_error(
    client: TestClient, method: str, path: str, body: dict[str, Any] | None
) -> None:
    """DESIGN §7: bad input never yields a 500. Refused (input::invalid) or stored intact."""
    if body and "mentions" in body:
        body["mentions"][0]["drawer"] = new_drawer(client)
    response = client.request(method, path, json=body)
    assert response.status_code in (200, 400, 422), response.text
    if response.status_code != 200:
        assert_envelope(response.json(), "input::invalid")
        assert entity_count(client) == 0
    elif path == "/api/mentions":
        [result] = response.json()["results"]
        stored = entity(client, result["entity"]["id"])
        assert (stored["name"], stored["kind"]) == (
            result["entity"]["name"],
            result["entity"]["kind"],
        )
        assert "\u0000" in stored["name"] + stored["kind"]


def test_a_nul_character_in_an_alias_is_never_a_server_error(client: TestClient) -> None:
    ada = see_all(client, "person", "Ada Lovelace")[0]["entity"]
    response = client.post(f"/api/entities/{ada['id']}/aliases", json={"alias": "Ada\u0000L"})
    assert response.status_code in (200, 400, 422), response.text
    expected = ["Ada\u0000L"] if response.status_code == 200 else []
    assert entity(client, ada["id"])["aliases"] == expected


@pytest.mark.parametrize("cursor", ["not-a-cursor", "%%%"])
def test_a_cursor_the_service_never_returned_is_refused(client: TestClient, cursor: str) -> None:
    see_all(client, "person", "Ada")
    response = client.get("/api/entities", params={"name": "ada", "cursor": cursor})
    assert response.status_code == 400
    assert_envelope(response.json(), "input::invalid")


def test_bad_lookups_and_dry_runs(client: TestClient) -> None:
    blank = client.get("/api/entities", params={"name": "  "})
    assert blank.status_code == 400
    assert_envelope(blank.json(), "domain::empty_label")
    resolve = client.post("/api/resolve", json={"name": "Ada", "kind": " "})
    assert resolve.status_code == 400
    assert_envelope(resolve.json(), "domain::empty_label")
    long_name = client.post("/api/resolve", json={"name": "n" * 201, "kind": "person"})
    assert long_name.status_code == 422
    assert_envelope(long_name.json(), "input::invalid")
