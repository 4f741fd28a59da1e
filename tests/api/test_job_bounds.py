"""Jobs have owners and bounds (design §8.1), on every backend.

A caller has at most `api.max_queued_jobs` jobs queued or running (3 here, so the test is
short); an agent's token sees and cancels only the jobs it queued, and another's answers as an
unknown id does; a job's payload (a checkpoint's items) leaves the graph when the job ends.
"""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import BACKENDS
from tests.support.app import (
    app_settings,
    app_store,
    assert_envelope,
    backend_graph,
    running_app,
    wiped,
)
from tests.support.holding import holding_first
from tests.support.jobs import held_elsewhere as job_held_elsewhere
from tests.support.jobs import update_job
from tests.support.polling import eventually

ADMIN = {"Authorization": "Bearer admin-secret"}
ADA = {"Authorization": "Bearer ada-secret"}
BOB = {"Authorization": "Bearer bob-secret"}
MAX_QUEUED = 3
WAIT_SECONDS = 60.0
"""A lease that runs out in 2100 (epoch ms on the database's clock): another instance holds it."""
"""How long a job may take to end; one runner runs them in turn, on a machine maybe loaded."""
ENDED = ("succeeded", "failed", "cancelled")


@pytest.fixture(scope="module", params=BACKENDS)
def bounded(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, mine_root: Path
) -> Iterator[TestClient]:
    graph = backend_graph(request)
    api = {
        "tokens": ["admin-secret", "ada:ada-secret", "bob:bob-secret"],
        "mine_roots": [mine_root],
        "max_queued_jobs": MAX_QUEUED,
    }
    settings = app_settings(tmp_path_factory.mktemp("job-bounds"), graph=graph, api=api)
    with running_app(settings) as client:
        yield client


@pytest.fixture
def client(bounded: TestClient) -> TestClient:
    return wiped(bounded)


def checkpoint(client: TestClient, headers: dict[str, str], content: str) -> Any:
    body = {"wing": "w", "room": "r", "items": [{"content": content}]}
    return client.post("/api/checkpoints", json=body, headers=headers)


def ended(client: TestClient, job_id: str) -> dict[str, Any]:
    def job() -> dict[str, Any] | None:
        found: dict[str, Any] = client.get(f"/api/jobs/{job_id}", headers=ADMIN).json()["job"]
        return found if found["status"] in ENDED else None

    return eventually(job, f"job {job_id} ended", WAIT_SECONDS)


def held_elsewhere(client: TestClient, agent: str | None = None, **params: Any) -> str:
    """A queued job of `agent` (None: an operator's) that this service's runner leaves alone:
    another instance holds its lease."""
    return job_held_elsewhere(app_store(client), "checkpoint", params, agent=agent).id


def stored_items(client: TestClient, job_id: str) -> tuple[Any, Any]:
    """The job node's payload and its count, read from the graph itself."""
    rows = app_store(client).run_text(
        "MATCH (j:Job {id: $id}) RETURN j.items AS items, j.item_count AS count", {"id": job_id}
    )
    return rows[0]["items"], rows[0]["count"]


# --- a bound per caller ------------------------------------------------------------------------


def test_a_caller_past_its_queue_bound_is_told_to_retry(client: TestClient) -> None:
    # The runner is held inside its first job (reading which of its items exist), so every
    # later job stays queued: the bound is met by jobs queued and running, not by timing.
    with holding_first("drawers_by_ids") as hold:
        first = checkpoint(client, ADA, "ada's first")
        assert first.status_code == 202, first.text
        eventually(hold.holding.is_set, "the runner holding ada's first job", WAIT_SECONDS)
        for index in range(1, MAX_QUEUED):
            queued = checkpoint(client, ADA, f"ada's job {index}")
            assert queued.status_code == 202, queued.text
        refused = checkpoint(client, ADA, "one too many")
        assert refused.status_code == 429, refused.text
        assert refused.headers["Retry-After"] == "2"
        assert_envelope(refused.json(), "service::busy")
        assert refused.json()["error"]["details"] == {
            "queued": MAX_QUEUED,
            "max_queued_jobs": MAX_QUEUED,
        }
        statuses = [job["status"] for job in client.get("/api/jobs", headers=ADA).json()["jobs"]]
        assert sorted(statuses) == ["queued"] * (MAX_QUEUED - 1) + ["running"]
        # The bound is each caller's: bob and the operators still queue theirs.
        assert checkpoint(client, BOB, "bob's").status_code == 202
        assert checkpoint(client, ADMIN, "the operator's").status_code == 202
    for job in client.get("/api/jobs", headers=ADMIN).json()["jobs"]:
        ended(client, job["id"])
    again = checkpoint(client, ADA, "once the others ended")
    assert again.status_code == 202, again.text


def test_the_operators_share_one_bound(client: TestClient) -> None:
    held = [held_elsewhere(client) for _ in range(MAX_QUEUED)]
    refused = checkpoint(client, ADMIN, "past the operators' bound")
    assert refused.status_code == 429, refused.text
    assert_envelope(refused.json(), "service::busy")
    assert checkpoint(client, ADA, "an agent's own bound").status_code == 202
    for job_id in held:
        assert client.post(f"/api/jobs/{job_id}/cancel", headers=ADMIN).status_code == 202
    assert checkpoint(client, ADMIN, "room again").status_code == 202


# --- owners --------------------------------------------------------------------------------------


def _missing(response: Any, job_id: str) -> None:
    assert response.status_code == 404, response.text
    assert response.json()["error"] == {
        "code": "jobs::job_not_found",
        "message": f"no job with id {job_id!r}",
        "details": {"job": job_id},
    }


def test_an_agent_sees_and_cancels_only_its_own_jobs(client: TestClient, mine_dir: Path) -> None:
    (mine_dir / "notes.md").write_text("An operator's notes, under a path of the server.")
    mined = client.post("/api/mine", json={"path": str(mine_dir), "wing": "docs"}, headers=ADMIN)
    assert mined.status_code == 202, mined.text
    operators = mined.json()["job"]["id"]
    ended(client, operators)
    ada = held_elsewhere(client, agent="ada")
    older = held_elsewhere(client)  # as jobs written before owners were: an operator's
    bobs = checkpoint(client, BOB, "bob's").json()["job"]["id"]
    ended(client, bobs)

    listed = client.get("/api/jobs", headers=ADA)
    assert [job["id"] for job in listed.json()["jobs"]] == [ada]
    assert str(mine_dir) not in listed.text
    assert [job["id"] for job in client.get("/api/jobs", headers=BOB).json()["jobs"]] == [bobs]
    every = {job["id"] for job in client.get("/api/jobs", headers=ADMIN).json()["jobs"]}
    assert every == {operators, ada, older, bobs}

    for job_id in (operators, older, bobs, "nope"):
        _missing(client.get(f"/api/jobs/{job_id}", headers=ADA), job_id)
        _missing(client.post(f"/api/jobs/{job_id}/cancel", headers=ADA), job_id)
    assert client.get(f"/api/jobs/{older}", headers=ADMIN).json()["job"]["status"] == "queued"

    own = client.post(f"/api/jobs/{ada}/cancel", headers=ADA)
    assert (own.status_code, own.json()["job"]["status"]) == (202, "cancelled")
    by_operator = client.post(f"/api/jobs/{older}/cancel", headers=ADMIN)
    assert (by_operator.status_code, by_operator.json()["job"]["status"]) == (202, "cancelled")


# --- payloads ------------------------------------------------------------------------------------


def test_a_finished_checkpoint_keeps_no_items(client: TestClient) -> None:
    accepted = checkpoint(client, ADMIN, "an item that is stored")
    assert accepted.status_code == 202, accepted.text
    job = ended(client, accepted.json()["job"]["id"])
    assert job["status"] == "succeeded"
    assert job["params"]["items"] == 1  # the job still says how many it held
    assert stored_items(client, job["id"]) == (None, 1)


def test_a_cancelled_checkpoint_keeps_no_items(client: TestClient) -> None:
    job_id = held_elsewhere(client, wing="w", room="r", items=[{"content": "never stored"}])
    assert stored_items(client, job_id) == ('[{"content": "never stored"}]', 1)
    cancelled = client.post(f"/api/jobs/{job_id}/cancel", headers=ADMIN)
    assert cancelled.status_code == 202, cancelled.text
    assert cancelled.json()["job"]["params"]["items"] == 1
    assert stored_items(client, job_id) == (None, 1)


def test_a_failed_checkpoint_keeps_no_items(client: TestClient) -> None:
    job_id = held_elsewhere(client, wing="w", room="r", items=[{"content": "never stored"}])
    error = {"code": "internal::error", "message": "the job failed"}
    store = app_store(client)
    update_job(store, job_id, status="failed", error=error, finished_at="2026-01-01T00:00:00Z")
    assert stored_items(client, job_id) == (None, 1)  # the statement that failed it
