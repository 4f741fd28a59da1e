"""Backing up the embedded database (docs/operations.md): stop the service, copy the data
directory, start a service on the copy, and it answers with everything the original held."""

import shutil
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2 as httpx

from tests.support.processes import Service

DRAWERS = [
    "Staging listens on port 8080 behind the load balancer",
    "Staging listens on port 8081 behind the load balancer",  # a near copy: linked
    "Ada Lovelace wrote the first program for the analytical engine",
]
NAMES = [("Ada Lovelace", "person"), ("Mario Lopez", "person"), ("Maria Lopez", "person")]


def seed(url: str) -> None:
    ids = [
        httpx.post(f"{url}/api/wings/infra/rooms/ops/drawers", json={"content": text}).json()[
            "drawer"
        ]["id"]
        for text in DRAWERS
    ]
    mentions = [
        {"drawer": drawer, "name": name, "kind": kind} for drawer in ids for name, kind in NAMES
    ]
    assert httpx.post(f"{url}/api/mentions", json={"mentions": mentions}).is_success


def contents(url: str) -> dict[str, Any]:
    """What the service holds, read through the API: drawers, entities, mentions, links."""
    room = httpx.get(f"{url}/api/wings/infra/rooms/ops/drawers", params={"limit": 1000}).json()
    entities = {
        name: sorted(
            found["id"]
            for found in httpx.get(f"{url}/api/entities", params={"name": name}).json()["entities"]
        )
        for name, _ in NAMES
    }
    mentions = {
        entity: len(httpx.get(f"{url}/api/entities/{entity}/mentions").json())
        for ids in entities.values()
        for entity in ids
    }
    duplicates = {
        drawer["id"]: httpx.get(f"{url}/api/drawers/{drawer['id']}/duplicates").json()
        for drawer in room["drawers"]
    }
    return {
        "drawers": sorted((d["id"], d["content"]) for d in room["drawers"]),
        "entities": entities,
        "mentions": mentions,
        "duplicates": duplicates,
        "hygiene": httpx.get(f"{url}/api/hygiene").json(),
    }


def test_a_copy_of_a_stopped_services_data_directory_restores_everything(
    tmp_path: Path, spawn: Callable[..., Service]
) -> None:
    original, restored = tmp_path / "a", tmp_path / "b"
    service = spawn(original)
    service.wait_healthy()
    seed(service.url)
    before = contents(service.url)
    service.stop(signal.SIGTERM)

    shutil.copytree(original, restored, symlinks=True)
    copy = spawn(restored)
    copy.wait_healthy()
    after = contents(copy.url)

    assert len(before["drawers"]) == len(DRAWERS)
    assert sum(before["mentions"].values()) == len(DRAWERS) * len(NAMES)
    assert all(len(ids) == 1 for ids in before["entities"].values())
    assert after == before
    copy.stop(signal.SIGTERM)
