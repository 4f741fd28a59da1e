"""Checkpoint and mining jobs through HTTP, run by the real job runner."""

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from castlegraph.api.client.local import LocalClient
from castlegraph.api.errors import Forbidden
from castlegraph.api.service.jobs.runner import JOB_FAILED
from castlegraph.graph.backends import observe
from tests.support.app import app_settings, app_store, assert_envelope, running_app
from tests.support.jobs import held_elsewhere

WAIT_SECONDS = 20.0
"""A lease that runs out in 2100 (epoch ms on the database's clock): another instance holds it."""


def finished(client: TestClient, response: Any) -> dict[str, Any]:
    assert response.status_code == 202, response.text
    return waited(client, response.json()["job"])


def waited(client: TestClient, job: dict[str, Any]) -> dict[str, Any]:
    assert job["status"] in ("queued", "running", "succeeded")
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        job = client.get(f"/api/jobs/{job['id']}").json()["job"]
        if job["status"] in ("succeeded", "failed", "cancelled"):
            return job
        time.sleep(0.02)
    raise AssertionError(f"job still {job['status']}")


def checkpoint(
    client: TestClient, items: list[dict[str, Any]], room: str = "ops"
) -> dict[str, Any]:
    body = {"wing": "agent", "room": room, "items": items}
    return finished(client, client.post("/api/checkpoints", json=body))


def test_a_checkpoint_counts_exact_copies_instead_of_storing_them(client: TestClient) -> None:
    first = checkpoint(client, [{"content": "D"}])
    second = checkpoint(client, [{"content": "D"}, {"content": "other"}])
    assert first["result"] == {"items": 1, "stored": 1, "duplicates": 0, "failed": []}
    assert second["result"] == {"items": 2, "stored": 1, "duplicates": 1, "failed": []}
    contents = [
        d["content"] for d in client.get("/api/wings/agent/rooms/ops/drawers").json()["drawers"]
    ]
    assert contents == ["D", "other"]


def test_an_item_repeated_within_a_checkpoint_is_a_duplicate(client: TestClient) -> None:
    job = checkpoint(client, [{"content": "same"}, {"content": "same"}])
    assert job["result"]["duplicates"] == 1
    assert job["progress"] == {"done": 2, "total": 2}


def test_a_checkpoint_job_shows_the_number_of_its_items(client: TestClient) -> None:
    body = {"wing": "agent", "room": "ops", "items": [{"content": "x1"}, {"content": "x2"}]}
    answer = client.post("/api/checkpoints", json=body)
    shown = {"wing": "agent", "room": "ops", "items": 2}
    assert answer.json()["job"]["params"] == shown
    job = waited(client, answer.json()["job"])
    assert job["params"] == shown and job["result"]["stored"] == 2
    listed = next(j for j in client.get("/api/jobs").json()["jobs"] if j["id"] == job["id"])
    assert listed["params"] == shown


def test_named_items_follow_the_named_drawer_rules(client: TestClient) -> None:
    client.post("/api/wings/agent/rooms/ops/drawers", json={"content": "A", "name": "plan"})
    job = checkpoint(client, [{"content": "A", "name": "plan"}, {"content": "B", "name": "plan"}])
    assert job["status"] == "succeeded"
    assert job["result"]["stored"] == 0
    assert job["result"]["duplicates"] == 1
    assert [(f["index"], f["code"]) for f in job["result"]["failed"]] == [
        (1, "palace::drawer_name_taken")
    ]


def test_a_checkpoint_item_may_go_to_another_room(client: TestClient) -> None:
    checkpoint(client, [{"content": "elsewhere", "destination": {"room": "inbox"}}])
    drawers = client.get("/api/wings/agent/rooms/inbox/drawers").json()["drawers"]
    assert [(d["content"], d["kind"]) for d in drawers] == [("elsewhere", "checkpoint")]


def test_bad_checkpoints_are_refused_before_a_job_exists(client: TestClient) -> None:
    empty = client.post(
        "/api/checkpoints", json={"wing": "w", "room": "r", "items": [{"content": " "}]}
    )
    assert empty.status_code == 400
    assert empty.json()["error"]["code"] == "input::invalid"
    assert client.get("/api/jobs").json()["jobs"] == []


def mine(client: TestClient, path: Path, **extra: Any) -> dict[str, Any]:
    body = {"path": str(path), "wing": "docs", "room": "notes", **extra}
    return finished(client, client.post("/api/mine", json=body))


def test_mining_stores_every_chunk_and_links_identical_files(
    client: TestClient, mine_dir: Path
) -> None:
    text = "# Deploys\n\nStaging listens on port 8080.\n\nProduction on 443."
    (mine_dir / "a.md").write_text(text)
    (mine_dir / "b.md").write_text(text)
    (mine_dir / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0")
    job = mine(client, mine_dir)
    assert job["result"] == {
        "files": 2,
        "skipped": 1,
        "created": 2,
        "unchanged": 0,
        "superseded": 0,
        "similar": 1,
        "retired": 0,
        "failed": [],
        "failed_count": 0,
    }
    drawers = client.get("/api/wings/docs/rooms/notes/drawers").json()["drawers"]
    assert sorted(d["name"] for d in drawers) == ["a.md#0", "b.md#0"]
    newer = next(d for d in drawers if d["name"] == "b.md#0")
    assert newer["origin"]["document"] == "b.md"
    assert newer["origin"]["chunk"] == 0
    assert len(newer["origin"]["revision"]) == 16
    [link] = client.get(f"/api/drawers/{newer['id']}/duplicates").json()["similar"]
    assert link["kind"] == "exact"


def test_re_mining_unchanged_files_changes_nothing_and_a_changed_file_supersedes(
    client: TestClient, mine_dir: Path
) -> None:
    (mine_dir / "a.md").write_text("First paragraph.\n\nSecond paragraph.")
    (mine_dir / "b.txt").write_text("Something else entirely.")
    mine(client, mine_dir)
    again = mine(client, mine_dir)
    assert again["result"] == {
        "files": 2,
        "skipped": 0,
        "created": 0,
        "unchanged": 2,
        "superseded": 0,
        "similar": 0,
        "retired": 0,
        "failed": [],
        "failed_count": 0,
    }
    (mine_dir / "a.md").write_text("First paragraph, edited.\n\nSecond paragraph.")
    changed = mine(client, mine_dir)
    assert changed["result"]["superseded"] == 1
    assert changed["result"]["unchanged"] == 1
    current = client.get("/api/wings/docs/rooms/notes/drawers").json()["drawers"]
    assert sorted(d["content"] for d in current) == [
        "First paragraph, edited.\n\nSecond paragraph.",
        "Something else entirely.",
    ]


def test_mining_respects_gitignore_and_chunk_size(client: TestClient, mine_dir: Path) -> None:
    (mine_dir / ".gitignore").write_text("build/\n*.log\n")
    (mine_dir / "build").mkdir()
    (mine_dir / "build" / "out.md").write_text("generated")
    (mine_dir / "run.log").write_text("log line")
    (mine_dir / "notes.md").write_text("\n\n".join(f"Paragraph {i} " + "x" * 80 for i in range(5)))
    job = mine(client, mine_dir, chunk_chars=200)
    assert job["result"]["files"] == 1
    names = [d["name"] for d in client.get("/api/wings/docs/rooms/notes/drawers").json()["drawers"]]
    assert sorted(names) == [f"notes.md#{i}" for i in range(3)]


def test_mining_a_missing_path_is_refused(client: TestClient, mine_dir: Path) -> None:
    response = client.post("/api/mine", json={"path": str(mine_dir / "nope"), "wing": "docs"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "palace::invalid_path"


@pytest.mark.parametrize("path", ["~0", "~no-such-user/notes", "notes\x00.md"])
def test_a_path_the_server_cannot_resolve_is_refused(client: TestClient, path: str) -> None:
    response = client.post("/api/mine", json={"path": path, "wing": "docs"})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "palace::invalid_path"
    assert response.json()["error"]["details"] == {"path": path}


def test_mining_reads_only_regular_files_inside_the_mined_tree(
    client: TestClient, mine_dir: Path, tmp_path: Path
) -> None:
    (mine_dir / "notes.md").write_text("Regular notes are mined.")
    os.mkfifo(mine_dir / "pipe.md")  # read, it would block the job thread for good
    (tmp_path / "secret.md").write_text("outside the root")
    (mine_dir / "secret.md").symlink_to(tmp_path / "secret.md")
    (mine_dir / "inside.md").symlink_to(mine_dir / "notes.md")  # stays in the tree: read
    with (mine_dir / "huge.md").open("wb") as huge:
        huge.truncate(11 * 2**20)  # sparse: 11 MiB of NUL bytes cost no disk
    job = mine(client, mine_dir)
    assert job["status"] == "succeeded"
    assert job["result"] == {
        "files": 2,
        "skipped": 2,
        "created": 2,
        "unchanged": 0,
        "superseded": 0,
        "similar": 1,
        "retired": 0,
        "failed": [{"path": "huge.md", "reason": "too_large"}],
        "failed_count": 1,
    }
    drawers = client.get("/api/wings/docs/rooms/notes/drawers").json()["drawers"]
    assert sorted((d["name"], d["content"]) for d in drawers) == [
        ("inside.md#0", "Regular notes are mined."),
        ("notes.md#0", "Regular notes are mined."),
    ]


def test_mining_a_fifo_or_a_device_stores_nothing(client: TestClient, mine_dir: Path) -> None:
    os.mkfifo(mine_dir / "pipe")
    (mine_dir / "zero").symlink_to("/dev/zero")  # resolves out of the root: refused
    assert mine(client, mine_dir / "pipe")["result"]["created"] == 0
    response = client.post("/api/mine", json={"path": str(mine_dir / "zero"), "wing": "docs"})
    assert_envelope(response.json(), "auth::forbidden")


def test_a_path_outside_the_roots_is_forbidden_before_it_is_looked_up(
    client: TestClient, mine_dir: Path, tmp_path: Path
) -> None:
    (tmp_path / "notes.md").write_text("outside the root")
    (mine_dir / "elsewhere").symlink_to(tmp_path)  # inside by name, outside once resolved
    for path in [
        "/etc",
        "~/.ssh",
        str(tmp_path),
        str(tmp_path / "missing"),  # 403, not 404: nothing is learnt outside the roots
        str(mine_dir / "elsewhere"),
        str(mine_dir / ".." / ".." / tmp_path.name),
    ]:
        response = client.post("/api/mine", json={"path": path, "wing": "docs"})
        assert response.status_code == 403, (path, response.text)
        assert_envelope(response.json(), "auth::forbidden")
        assert response.json()["error"]["details"] == {"path": path, "setting": "api.mine_roots"}
    assert client.get("/api/jobs").json()["jobs"] == []


def test_only_the_local_users_client_mines_outside_the_roots(
    client: TestClient, tmp_path: Path
) -> None:
    (tmp_path / "notes.md").write_text("The local user's own notes.")
    usecases = client.app.state.usecases  # type: ignore[attr-defined]
    body = {"path": str(tmp_path), "wing": "docs", "room": "notes"}
    with pytest.raises(Forbidden):  # `/mcp` serves remote callers through this client
        LocalClient(usecases).mine(body)
    job = LocalClient(usecases, local_user=True).mine(body)["job"]
    assert waited(client, job)["result"]["created"] == 1


@pytest.fixture(scope="module")
def unrooted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """An app with the default settings: no mining roots."""
    with running_app(app_settings(tmp_path_factory.mktemp("unrooted"))) as client:
        yield client


def test_without_roots_mining_over_http_is_forbidden_naming_the_setting(
    unrooted: TestClient, tmp_path: Path
) -> None:
    response = unrooted.post("/api/mine", json={"path": str(tmp_path), "wing": "docs"})
    assert response.status_code == 403
    assert_envelope(response.json(), "auth::forbidden")
    assert "api.mine_roots (CASTLEGRAPH_MINE_ROOTS)" in response.json()["error"]["message"]
    assert response.json()["error"]["details"] == {"setting": "api.mine_roots"}
    assert unrooted.get("/api/jobs").json()["jobs"] == []


def test_an_unknown_job_is_404(client: TestClient) -> None:
    response = client.get("/api/jobs/nope")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "jobs::job_not_found"


def test_jobs_are_listed_newest_first(client: TestClient) -> None:
    first = checkpoint(client, [{"content": "one"}])
    second = checkpoint(client, [{"content": "two"}])
    listed = [job["id"] for job in client.get("/api/jobs").json()["jobs"]]
    assert listed[:2] == [second["id"], first["id"]]


def test_a_checkpoint_over_ten_batches_is_refused_before_a_job_exists(client: TestClient) -> None:
    items = [{"content": "x"}] * 10_001  # api.max_batch (1,000) x 10, plus one
    response = client.post("/api/checkpoints", json={"wing": "w", "room": "r", "items": items})
    assert response.status_code == 413, response.text
    assert response.json()["error"]["code"] == "payload::too_large"
    assert response.json()["error"]["details"] == {"items": 10_001, "max": 10_000}
    assert client.get("/api/jobs").json()["jobs"] == []


@pytest.mark.parametrize("destination", [{"wing": " "}, {"room": "a\x00b"}, {"room": "r\n"}])
def test_a_checkpoint_destination_is_checked_like_any_room(
    client: TestClient, destination: dict[str, str]
) -> None:
    items = [{"content": "fine"}, {"content": "elsewhere", "destination": destination}]
    response = client.post("/api/checkpoints", json={"wing": "w", "room": "r", "items": items})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "palace::invalid_path"
    assert client.get("/api/jobs").json()["jobs"] == []


def test_cancelling_a_queued_job_answers_it_cancelled_and_again_unchanged(
    client: TestClient,
) -> None:
    store = app_store(client)
    job_id = held_elsewhere(store, "test", {}).id  # recorded, never submitted: this runner waits
    response = client.post(f"/api/jobs/{job_id}/cancel")
    assert response.status_code == 202, response.text
    job = response.json()["job"]
    assert (job["id"], job["status"]) == (job_id, "cancelled")
    assert job["finished_at"] is not None
    again = client.post(f"/api/jobs/{job_id}/cancel")
    assert (again.status_code, again.json()) == (200, {"job": job})
    assert client.get(f"/api/jobs/{job_id}").json() == {"job": job}


def test_cancelling_a_finished_job_changes_nothing(client: TestClient) -> None:
    done = checkpoint(client, [{"content": "kept"}])
    response = client.post(f"/api/jobs/{done['id']}/cancel")
    assert (response.status_code, response.json()) == (200, {"job": done})
    drawers = client.get("/api/wings/agent/rooms/ops/drawers").json()["drawers"]
    assert [d["content"] for d in drawers] == ["kept"]


def test_cancelling_an_unknown_job_is_404(client: TestClient) -> None:
    response = client.post("/api/jobs/nope/cancel")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "jobs::job_not_found"


class _Failing:
    """Makes the job's first drawer write fail with `error()`, raised inside its transaction."""

    def __init__(self, error: Any) -> None:
        self.error = error
        self.raised = False

    def statement(self, name: str, seconds: float, failed: bool) -> None:
        if name in ("create_drawer", "create_drawers") and not self.raised:
            self.raised = True
            self.error()

    def unit(self, use_case: str, result: object) -> None:
        """Nothing to do."""


def _refused_statement(store: Any) -> None:
    store.run_text("RETURN 1 +", {})  # the database's own syntax error, with its own words


def _missing_file() -> None:
    Path("/srv/castlegraph-secret/notes.txt").read_text()  # an OSError naming a server path


@pytest.mark.parametrize("failure", ["database", "server path"])
def test_a_failed_job_reports_a_stable_error_without_database_text_or_paths(
    client: TestClient, failure: str
) -> None:
    store = app_store(client)
    failing = _Failing(
        (lambda: _refused_statement(store)) if failure == "database" else _missing_file
    )
    observe.subscribe(failing)
    try:
        job = checkpoint(client, [{"content": "a note that will not be stored"}])
    finally:
        observe.unsubscribe(failing)
    assert failing.raised
    assert job["status"] == "failed"
    assert job["error"] == {"code": "internal::error", "message": JOB_FAILED}
