"""A job whose service is killed half-way resumes on restart and ends as if never stopped.

On the embedded database the restarted service resumes its own job at once; on Neo4j it is
another instance, which takes the job over once the dead one's lease ran out.
"""

import random
import signal
import string
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from tests.support.backends import Backend
from tests.support.jobs import SHORT_LEASE
from tests.support.processes import Service

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]  # on Neo4j: a lease to wait out

ITEMS = 300
WAIT_SECONDS = 120.0


def items() -> list[dict[str, str]]:
    """Notes in threes: a note, its exact repeat, and a copy with one typo.

    Each note has words of its own, so every likeness is unambiguous and the final graph does
    not depend on how ties between equally good candidates are broken (by drawer id, which
    derives from the job id and so differs between the two runs compared here).
    """
    rng = random.Random(11)
    out = []
    for _ in range(ITEMS // 3):
        words = [
            "".join(rng.choices(string.ascii_lowercase, k=rng.randint(4, 9))) for _ in range(8)
        ]
        note = " ".join(words)
        typo = note[:5] + ("x" if note[5] != "x" else "y") + note[6:]
        out += [{"content": note}, {"content": note}, {"content": typo}]
    return out


def post_checkpoint(service: Service) -> str:
    body = {"wing": "agents", "room": "ops", "items": items()}
    response = httpx.post(f"{service.url}/api/checkpoints", json=body, timeout=30)
    assert response.status_code == 202
    return str(response.json()["job"]["id"])


def job(service: Service, job_id: str) -> dict[str, Any]:
    return dict(httpx.get(f"{service.url}/api/jobs/{job_id}", timeout=10).json()["job"])


def wait_for(
    service: Service, job_id: str, done: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        state = job(service, job_id)
        if done(state):
            return state
        time.sleep(0.02)
    raise AssertionError(f"job {job_id} did not get there: {job(service, job_id)}")


def graph_of(
    backend: Backend, data_dir: Path
) -> tuple[Counter[str], Counter[tuple[str, str, str]]]:
    """Drawer contents and SIMILAR_TO edges (by content), read after the service stopped."""
    with backend.graph(data_dir) as store:
        contents = Counter(
            row["c"] for row in store.run_text("MATCH (d:Drawer) RETURN d.content AS c", {})
        )
        edges = Counter(
            (row["a"], row["b"], row["k"])
            for row in store.run_text(
                "MATCH (a:Drawer)-[s:SIMILAR_TO]->(b:Drawer) "
                "RETURN a.content AS a, b.content AS b, s.kind AS k",
                {},
            )
        )
    return contents, edges


def test_a_job_killed_half_way_resumes_with_no_duplicate(
    tmp_path: Path, spawn: Callable[..., Service], backend: Backend
) -> None:
    interrupted_dir, reference_dir = tmp_path / "interrupted", tmp_path / "reference"

    first = spawn(interrupted_dir, env=SHORT_LEASE)
    first.wait_healthy()
    job_id = post_checkpoint(first)
    half = wait_for(first, job_id, lambda j: j["progress"]["done"] >= ITEMS // 4)
    assert half["status"] == "running"
    first.stop(signal.SIGKILL)

    restarted = spawn(interrupted_dir, env=SHORT_LEASE)
    restarted.wait_healthy()
    resumed = wait_for(restarted, job_id, lambda j: j["status"] in ("succeeded", "failed"))
    restarted.stop(signal.SIGTERM)
    assert "resuming job" in restarted.output()
    contents, edges = graph_of(backend, interrupted_dir)

    backend.empty()
    reference = spawn(reference_dir)
    reference.wait_healthy()
    reference_id = post_checkpoint(reference)
    uninterrupted = wait_for(
        reference, reference_id, lambda j: j["status"] in ("succeeded", "failed")
    )
    reference.stop(signal.SIGTERM)

    assert resumed["status"] == uninterrupted["status"] == "succeeded"
    assert resumed["result"] == uninterrupted["result"]
    assert resumed["result"]["stored"] + resumed["result"]["duplicates"] == ITEMS
    assert (contents, edges) == graph_of(backend, reference_dir)
    assert max(contents.values()) == 1  # nothing stored twice
    assert max(edges.values()) == 1  # nothing linked twice
    assert edges  # the workload does link
