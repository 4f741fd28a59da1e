"""Duplicate review through HTTP: client-supplied vectors with known cosines."""

import math
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.app import app_store, assert_envelope

ROOM = "/api/wings/w/rooms/r/drawers"


def unit(angle_degrees: float) -> list[float]:
    """A 4-d vector at `angle` from the first axis, in the first plane: cos = cos(angle)."""
    radians = math.radians(angle_degrees)
    return [math.cos(radians), math.sin(radians), 0.0, 0.0]


def drawer(client: TestClient, content: str, vector: list[float], room: str = "r") -> str:
    written = client.post(f"/api/wings/w/rooms/{room}/drawers", json={"content": content})
    drawer_id = str(written.json()["drawer"]["id"])
    response = client.put(f"/api/drawers/{drawer_id}/embedding", json={"vector": vector})
    assert response.status_code == 200, response.text
    return drawer_id


def clusters(client: TestClient, **params: Any) -> list[list[tuple[str, str, float]]]:
    body = client.get("/api/duplicates", params=params).json()
    assert body["pairs_limit"] == 100
    listed = [c for c in body["clusters"] if c["pairs_total"] == len(c["pairs"])]
    assert [c["size"] for c in listed] == [
        len({m for p in c["pairs"] for m in (p["a"], p["b"])}) for c in listed
    ]
    return [[(p["a"], p["b"], round(p["score"], 4)) for p in c["pairs"]] for c in body["clusters"]]


@pytest.fixture
def palace(client: TestClient) -> dict[str, str]:
    """A 3-cluster (0°, 10°, 20°), a pair (90°, 95°) and a loner (55°)."""
    angles = {"a0": 0, "a10": 10, "a20": 20, "p90": 90, "p95": 95, "loner": 55}
    return {name: drawer(client, f"note {name}", unit(angle)) for name, angle in angles.items()}


def pair(ids: dict[str, str], x: str, y: str, degrees: float) -> tuple[str, str, float]:
    low, high = sorted((ids[x], ids[y]))
    return (low, high, round(math.cos(math.radians(degrees)), 4))


def test_clusters_from_known_cosines(client: TestClient, palace: dict[str, str]) -> None:
    found = clusters(client, threshold=0.9)  # cos 20° = 0.94 joins a0 and a20 too
    assert found == [
        [pair(palace, "p90", "p95", 5)],
        sorted(
            [
                pair(palace, "a0", "a10", 10),
                pair(palace, "a10", "a20", 10),
                pair(palace, "a0", "a20", 20),
            ],
            key=lambda p: (-p[2], p[0], p[1]),
        ),
    ]


def test_the_threshold_is_inclusive(client: TestClient, palace: dict[str, str]) -> None:
    at_ten = math.cos(math.radians(10))
    found = clusters(client, threshold=at_ten)
    assert [len(c) for c in found] == [1, 2]  # cos 5° and the two 10° pairs; 20° is out
    assert clusters(client, threshold=0.999) == []


def verdicts(client: TestClient) -> set[tuple[str, str, str]]:
    """Every recorded verdict edge, read from the graph: (a, b, status)."""
    rows = app_store(client).run_text(
        "MATCH (a:Drawer)-[v:DEDUP_CHECKED]->(b:Drawer) RETURN a.id AS a, b.id AS b, v.status AS s",
        {},
    )
    return {(row["a"], row["b"], row["s"]) for row in rows}


def record(client: TestClient, a: str, b: str, status: str) -> None:
    recorded = client.post("/api/duplicates/verdicts", json={"a": a, "b": b, "status": status})
    assert recorded.status_code == 200, recorded.text
    assert recorded.json() == {"a": min(a, b), "b": max(a, b), "status": status}


def test_a_verdict_hides_its_pair_and_superseding_clears_it(
    client: TestClient, palace: dict[str, str]
) -> None:
    p90, p95 = palace["p90"], palace["p95"]
    record(client, p95, p90, "supplement")
    record(client, palace["a0"], palace["a10"], "unrelated")
    before = clusters(client, threshold=0.9)
    assert [len(c) for c in before] == [2]  # the pair and the a0-a10 edge are hidden
    assert pair(palace, "p90", "p95", 5) not in before[0]
    assert pair(palace, "a0", "a10", 10) not in before[0]
    replaced = client.put(f"/api/drawers/{p95}", json={"content": "note p95, edited"})
    assert replaced.status_code == 201, replaced.text
    assert replaced.json()["superseded"] == p95
    new_id = replaced.json()["drawer"]["id"]
    # Superseding clears the closed drawer's verdicts (and only its own) ...
    assert verdicts(client) == {(*sorted((palace["a0"], palace["a10"])), "unrelated")}
    embedded = client.put(f"/api/drawers/{new_id}/embedding", json={"vector": unit(95)})
    assert embedded.status_code == 200, embedded.text
    # ... and the pair comes back for review with the replacement.
    found = clusters(client, threshold=0.9)
    assert found[0] == [pair({"p90": p90, "new": new_id}, "p90", "new", 5)]


def test_deleting_a_drawer_clears_its_verdicts(client: TestClient, palace: dict[str, str]) -> None:
    record(client, palace["a0"], palace["a10"], "duplicate")
    record(client, palace["p90"], palace["p95"], "unrelated")
    assert len(verdicts(client)) == 2
    assert client.delete(f"/api/drawers/{palace['a0']}").status_code == 204
    assert verdicts(client) == {(*sorted((palace["p90"], palace["p95"])), "unrelated")}


def test_verdicts_by_name_and_unknown_drawers(client: TestClient) -> None:
    ids = []
    for name, angle in (("first", 0), ("second", 1)):
        written = client.post(ROOM, json={"content": f"named {name}", "name": name}).json()
        ids.append(written["drawer"]["id"])
        client.put(f"/api/drawers/{ids[-1]}/embedding", json={"vector": unit(angle)})
    assert len(clusters(client)) == 1
    body = {"a": "first", "b": "second", "status": "duplicate", "wing": "w", "room": "r"}
    recorded = client.post("/api/duplicates/verdicts", json=body)
    assert recorded.status_code == 200, recorded.text
    assert recorded.json() == {"a": min(ids), "b": max(ids), "status": "duplicate"}
    assert clusters(client) == []
    unknown = client.post("/api/duplicates/verdicts", json={**body, "b": "missing"})
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "palace::drawer_not_found"


@pytest.mark.parametrize("status", ["dup", "", "DUPLICATE", None])
def test_an_invalid_status_is_refused(client: TestClient, status: str | None) -> None:
    body = {"a": "x", "b": "y", "status": status}
    response = client.post("/api/duplicates/verdicts", json=body)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "input::invalid"


def test_scope_by_room(client: TestClient) -> None:
    drawer(client, "one", unit(0), room="r")
    drawer(client, "two", unit(1), room="other")
    assert len(clusters(client)) == 1  # without a scope pairs cross rooms
    assert clusters(client, wing="w", room="r") == []


@pytest.mark.parametrize(
    "vector",
    [[], [0.0, 0.0, 0.0, 0.0], [1.0, 2.0], [1.0, "NaN", 0.0, 0.0]],
)
def test_bad_vectors_are_refused(client: TestClient, vector: list[Any]) -> None:
    first = drawer(client, "sets the dimension to 4", unit(0))
    response = client.put(f"/api/drawers/{first}/embedding", json={"vector": vector})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "input::invalid"


def test_a_vector_for_an_unknown_drawer_is_404(client: TestClient) -> None:
    response = client.put("/api/drawers/nope/embedding", json={"vector": [1.0]})
    assert response.status_code == 404
    assert_envelope(response.json(), "palace::drawer_not_found")


@pytest.mark.parametrize("threshold", [-0.1, 1.5])
def test_the_threshold_range(client: TestClient, threshold: float) -> None:
    response = client.get("/api/duplicates", params={"threshold": threshold})
    assert response.status_code == 422
    assert_envelope(response.json(), "input::invalid")


def test_hygiene_counts_what_waits_for_review(client: TestClient, palace: dict[str, str]) -> None:
    client.post(ROOM, json={"content": "no vector yet"})
    report = client.get("/api/hygiene").json()
    assert report == {
        "duplicate_pairs_pending": 3 + 1,  # at 0.85: the 3-cluster and the pair
        "possibly_same_as_pending": 0,
        "drawers_without_embedding": 1,
    }


def _boilerplate_elsewhere(client: TestClient, copies: int) -> None:
    """The same vector in `copies` other rooms: more look-alikes than the k of a k-NN search."""
    for i in range(copies):
        drawer(client, f"boilerplate {i}", unit(0), room=f"elsewhere-{i}")


@pytest.mark.parametrize("exact_scope", [None, 0], ids=["in-memory", "growing-k"])
def test_a_scoped_search_is_exact_whatever_other_rooms_hold(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, exact_scope: int | None
) -> None:
    """design §6: 40 identical vectors in other rooms hid the room's own pair from a k = 16
    search filtered to the room afterwards. Both ways of searching a scope must find it."""
    if exact_scope is not None:
        monkeypatch.setattr("castlegraph.graph.review.duplicates.EXACT_SCOPE", exact_scope)
    _boilerplate_elsewhere(client, 40)
    first = drawer(client, "the room's note", unit(0))
    second = drawer(client, "the room's note, again", unit(1))
    assert clusters(client, wing="w", room="r") == [[pair({"x": first, "y": second}, "x", "y", 1)]]


@pytest.mark.parametrize("exact_scope", [None, 0], ids=["in-memory", "growing-k"])
def test_a_cluster_is_never_cut_at_k_neighbours(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, exact_scope: int | None
) -> None:
    """20 identical vectors in the room: one cluster of 20 holding their 190 pairs, the first
    100 of them listed (by ids: every score is 1.0), at the default threshold and below."""
    if exact_scope is not None:
        monkeypatch.setattr("castlegraph.graph.review.duplicates.EXACT_SCOPE", exact_scope)
    ids = [drawer(client, f"same {i}", unit(0)) for i in range(20)]
    every = sorted((a, b, 1.0) for a in ids for b in ids if a < b)
    for threshold in (0.85, 0.5):
        body = client.get(
            "/api/duplicates", params={"wing": "w", "room": "r", "threshold": threshold}
        ).json()
        [cluster] = body["clusters"]
        assert (cluster["size"], cluster["pairs_total"]) == (20, 190)
        assert [(p["a"], p["b"], p["score"]) for p in cluster["pairs"]] == every[:100]


def test_the_default_threshold_finds_a_pair_behind_many_copies(client: TestClient) -> None:
    """An attacker's palace: 40 rooms holding [A, A, B, A] (A and B at cosine 0.9992), then
    40 fresh rooms each holding one A and one B, whose A is then superseded by a rewrite with
    the same vector. The pairs kept from an approximate k-NN search as each vector arrived
    lost every fresh room's pair at the default threshold, while the exact path (below it)
    found them: each fresh room must get its cluster at every threshold."""
    a, b = [1.0, 0.0, 0.0, 0.0], [0.999, 0.04, 0.0, 0.0]
    for room in range(40):
        for number, vector in enumerate((a, a, b, a)):
            drawer(client, f"copy {number} of room {room}", vector, room=f"copies-{room}")
    fresh = [
        (
            drawer(client, f"fresh A {room}", a, f"fresh-{room}"),
            drawer(client, f"fresh B {room}", b, f"fresh-{room}"),
        )
        for room in range(40)
    ]
    for room, (first, second) in enumerate(fresh):
        expected = [[(min(first, second), max(first, second), 0.9992)]]
        for threshold in (0.85, 0.849):
            found = clusters(client, wing="w", room=f"fresh-{room}", threshold=threshold)
            assert found == expected, (room, threshold)
    for room, (first, second) in enumerate(fresh):
        replaced = client.put(f"/api/drawers/{first}", json={"content": f"fresh A {room}, again"})
        assert replaced.status_code == 201, replaced.text
        rewrite = replaced.json()["drawer"]["id"]
        embedded = client.put(f"/api/drawers/{rewrite}/embedding", json={"vector": a})
        assert embedded.status_code == 200, embedded.text
        expected = [[(min(rewrite, second), max(rewrite, second), 0.9992)]]
        for threshold in (0.85, 0.849):
            found = clusters(client, wing="w", room=f"fresh-{room}", threshold=threshold)
            assert found == expected, (room, threshold)


@pytest.mark.parametrize(
    "vector",
    [
        [1e308, 1.0, 0.0, 0.0],
        [-3.5e38, 0.0, 0.0, 0.0],
        [3e38, 3e38, 0.0, 0.0],
        [5e-324, 0.0, 0.0, 0.0],
        [1e-46, -1e-46, 0.0, 0.0],
        [1e-30, 0.0, 0.0, 0.0],
    ],
    ids=["inf", "-inf", "norm-inf", "zero", "zeros", "norm-zero"],
)
def test_a_vector_broken_by_float32_is_refused_and_not_stored(
    client: TestClient, vector: list[float]
) -> None:
    """Finite and non-zero in float64, but vectors are stored as float32: there these hold an
    infinity or only zeros, or their squared norm overflows or vanishes, and no cosine could
    be computed with them (FalkorDB scored `[1e-30, 0, 0, 0]` 1.0 against `[1, 1, 0, 0]`)."""
    written = client.post(ROOM, json={"content": "a drawer waiting for its vector"})
    drawer_id = written.json()["drawer"]["id"]
    response = client.put(f"/api/drawers/{drawer_id}/embedding", json={"vector": vector})
    assert response.status_code == 422, response.text
    assert_envelope(response.json(), "input::invalid")
    assert client.get("/api/hygiene").json()["drawers_without_embedding"] == 1
    assert drawer(client, "the palace's first vector", unit(0)) != drawer_id  # dimension still free


def test_a_verdict_on_one_drawer_twice_is_422_and_records_nothing(client: TestClient) -> None:
    """design §11: a drawer is never a duplicate of itself, by id or by a name that finds it."""
    written = client.post(ROOM, json={"content": "named once", "name": "once"}).json()
    drawer_id = written["drawer"]["id"]
    for a, b in ((drawer_id, drawer_id), ("once", drawer_id), ("once", "once")):
        body = {"a": a, "b": b, "status": "duplicate", "wing": "w", "room": "r"}
        response = client.post("/api/duplicates/verdicts", json=body)
        assert response.status_code == 422, response.text
        assert_envelope(response.json(), "input::invalid")
        assert response.json()["error"]["details"] == {"drawer": drawer_id}
    assert verdicts(client) == set()


def test_a_verdict_on_a_superseded_drawer_is_409_and_records_nothing(
    client: TestClient, palace: dict[str, str]
) -> None:
    old = palace["p95"]
    replaced = client.put(f"/api/drawers/{old}", json={"content": "note p95, edited"})
    assert replaced.status_code == 201, replaced.text
    for a, b in ((old, palace["p90"]), (palace["p90"], old)):
        response = client.post(
            "/api/duplicates/verdicts", json={"a": a, "b": b, "status": "duplicate"}
        )
        assert response.status_code == 409, response.text
        assert_envelope(response.json(), "palace::drawer_superseded")
        assert response.json()["error"]["details"]["drawer"] == old
    assert verdicts(client) == set()
    record(client, replaced.json()["drawer"]["id"], palace["p90"], "duplicate")  # the current one
