"""A mining job survives its service: killed, it resumes; stopped cleanly, it is requeued.

The documents are one chunk each with words of their own, so the finished graph is known
exactly: every document stored once, under its own name, whatever the interruption. On Neo4j
the restarted service is another instance, which takes a killed one's job over once its lease
ran out.
"""

import json
import random
import signal
import string
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from tests.support.backends import Backend
from tests.support.jobs import SHORT_LEASE
from tests.support.polling import eventually
from tests.support.processes import Service

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]  # on Neo4j: a lease to wait out

DOCUMENTS = 200
WAIT_SECONDS = 180.0


def documents(root: Path) -> dict[str, str]:
    """`DOCUMENTS` small text files under `root/notes`, by relative path."""
    rng = random.Random(17)
    folder = root / "notes"
    folder.mkdir(parents=True)
    written = {}
    for number in range(DOCUMENTS):
        words = (
            "".join(rng.choices(string.ascii_lowercase, k=rng.randint(5, 9))) for _ in range(10)
        )
        text = " ".join(words)
        (folder / f"note-{number:03d}.md").write_text(text + "\n", encoding="utf-8")
        written[f"note-{number:03d}.md"] = text
    return written


def serve(spawn: Callable[..., Service], data_dir: Path, root: Path) -> Service:
    service = spawn(data_dir, env={"CASTLEGRAPH_MINE_ROOTS": str(root), **SHORT_LEASE})
    service.wait_healthy()
    return service


def job(service: Service, job_id: str) -> dict[str, Any]:
    return dict(httpx.get(f"{service.url}/api/jobs/{job_id}", timeout=10).json()["job"])


def finished(service: Service, job_id: str) -> dict[str, Any]:
    return eventually(
        lambda: (state := job(service, job_id))["status"] in ("succeeded", "failed") and state,
        f"job {job_id} finished",
        WAIT_SECONDS,
    )


def mine_half_way(spawn: Callable[..., Service], data_dir: Path, root: Path) -> tuple[Service, str]:
    """A service mining `root/notes`, and its job, once a tenth of it is done."""
    service = serve(spawn, data_dir, root)
    body = {"path": str(root / "notes"), "wing": "library"}
    response = httpx.post(f"{service.url}/api/mine", json=body, timeout=30)
    assert response.status_code == 202, response.text
    job_id = str(response.json()["job"]["id"])
    state = eventually(
        lambda: (s := job(service, job_id))["progress"]["done"] >= DOCUMENTS // 10 and s,
        "a tenth of the documents mined",
        WAIT_SECONDS,
    )
    assert state["status"] == "running"
    return service, job_id


def stored(backend: Backend, data_dir: Path) -> tuple[Counter[tuple[str, str]], dict[str, Any]]:
    """(name, content) of every drawer, and the job's node, read after the service stopped."""
    with backend.graph(data_dir) as store:
        drawers = Counter(
            (row["n"], row["c"])
            for row in store.run_text("MATCH (d:Drawer) RETURN d.name AS n, d.content AS c", {})
        )
        [row] = store.run_text("MATCH (j:Job) RETURN properties(j) AS job", {})
    return drawers, dict(row["job"])


def expected(texts: dict[str, str]) -> Counter[tuple[str, str]]:
    return Counter((f"{name}#0", text) for name, text in texts.items())


def assert_complete(state: dict[str, Any]) -> None:
    assert state["status"] == "succeeded", state
    assert state["progress"]["done"] == DOCUMENTS
    assert state["result"]["files"] == DOCUMENTS
    assert state["result"]["skipped"] == 0


def test_a_mining_job_killed_half_way_resumes_and_stores_each_document_once(
    tmp_path: Path, spawn: Callable[..., Service], backend: Backend
) -> None:
    root = tmp_path / "root"
    texts = documents(root)
    data_dir = tmp_path / "data"
    first, job_id = mine_half_way(spawn, data_dir, root)
    first.stop(signal.SIGKILL)

    restarted = serve(spawn, data_dir, root)
    resumed = finished(restarted, job_id)
    restarted.stop(signal.SIGTERM)
    assert "resuming job" in restarted.output()
    assert_complete(resumed)
    drawers, node = stored(backend, data_dir)
    assert drawers == expected(texts)  # each document once, under its own name
    assert int(node["attempts"]) == 2  # its first start, and one after the death


def test_a_clean_stop_requeues_a_mining_job_which_the_next_start_finishes(
    tmp_path: Path, spawn: Callable[..., Service], backend: Backend
) -> None:
    root = tmp_path / "root"
    texts = documents(root)
    data_dir = tmp_path / "data"
    first, job_id = mine_half_way(spawn, data_dir, root)
    first.stop(signal.SIGTERM)
    assert f"job {job_id} checkpointed for the next start" in first.output()

    drawers, node = stored(backend, data_dir)
    assert (node["status"], node.get("owner"), node.get("lease_expires")) == ("queued", None, None)
    assert int(node["attempts"]) == 0
    position = json.loads(node["state"])["next"]
    assert 0 < position < DOCUMENTS
    assert int(node["progress_done"]) == position
    assert sum(drawers.values()) == position  # what was checkpointed, and nothing more
    assert drawers <= expected(texts)

    restarted = serve(spawn, data_dir, root)
    resumed = finished(restarted, job_id)
    restarted.stop(signal.SIGTERM)
    assert_complete(resumed)
    assert stored(backend, data_dir)[0] == expected(texts)
