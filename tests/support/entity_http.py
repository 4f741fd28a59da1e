"""The entity routes as an extractor calls them, for tests/api/test_entity_*.py.

Those test the entity routes through HTTP against the real app and its embedded database.
Every example of design §5 and §11 is posted as an extractor would post it; the answers are
checked on the response and, where the design notes say something is stored, read back. Each
helper here checks the status it expects, so a test reads as the story it tells.
"""

import uuid
from typing import Any

from fastapi.testclient import TestClient

from castlegraph.resolver.entity_model import EntityView
from tests.support.app import app_store
from tests.support.seeding import insert_entity

Snapshot = tuple[frozenset[tuple[Any, ...]], ...]


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


def snapshot(client: TestClient) -> Snapshot:
    """Every entity, MENTIONS and POSSIBLY_SAME_AS edge with all its properties."""
    store = app_store(client)

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
    view = EntityView.of(str(uuid.uuid4()), name, kind)
    insert_entity(app_store(client), view, created_at="2024-01-01T00:00:00.000000Z")
    return view.id


def entity_count(client: TestClient) -> int:
    [row] = app_store(client).run_text("MATCH (e:Entity) RETURN count(e) AS n", {})
    n: int = row["n"]
    return n
