"""Jobs that cannot hurt the service (design §11), on every backend available.

Progress saves write only what changed, a cancel is seen at the next save, a job whose service
kept dying is failed instead of resumed, a vanished job does not stop the runner, and finished
jobs are pruned after 30 days.
"""

import copy
import dataclasses
import json
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from castlegraph.api.service.jobs import batches as batches_module
from castlegraph.api.service.jobs import runner as runner_module
from castlegraph.api.service.jobs.checkpoint import run_checkpoint
from castlegraph.api.service.jobs.context import JobContext
from castlegraph.api.service.jobs.mining import run_mine
from castlegraph.api.service.jobs.runner import JobRunner
from castlegraph.graph import jobs as jobs_module
from castlegraph.graph.backends import observe
from castlegraph.graph.drawers.drawer_request import DedupPolicy
from castlegraph.graph.errors import JobNotFound
from castlegraph.graph.jobs import (
    MAX_STARTS,
    Job,
    Saved,
    cancel_job,
    claim_job,
    create_job,
    end_job,
    get_job,
    item_id,
    prune_jobs,
    recent_jobs,
    renew_job_lease,
    save_job_progress,
)
from tests.support.jobs import unfinished_jobs, update_job
from tests.support.statements import recording_statements

NOW = "2026-01-01T00:01:00.000000Z"
LEASE_MS = 3_600_000
WAIT_SECONDS = 30.0


def a_job(store: Any, items: int) -> str:
    params = {"wing": "w", "room": "r", "items": [{"content": f"item {i}"} for i in range(items)]}
    return create_job(store, "checkpoint", params, total=items).id


def drawer_count(store: Any) -> int:
    return int(store.run_text("MATCH (d:Drawer) RETURN count(d) AS n", {})[0]["n"])


def wait_until(store: Any, job_id: str, *statuses: str) -> Job:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        job = get_job(store, job_id)
        if job.status in statuses:
            return job
        time.sleep(0.02)
    raise AssertionError(f"job {job_id} still {get_job(store, job_id).status}")


def a_runner(store: Any, written: Any = lambda _: None, owner: str = "r") -> JobRunner:
    return JobRunner(lambda: store, DedupPolicy(), written, owner)


@dataclass
class Recording(JobContext):
    """The real context on the real store, keeping a copy of what each save made wrote: one
    of its own (`checkpoint`) or one a batch's statement made (`progress`)."""

    saves: list[tuple[dict[str, Any], int, dict[str, Any]]] = field(default_factory=list)
    asked: tuple[dict[str, Any], int, dict[str, Any]] | None = None

    def checkpoint(self, state: dict[str, Any], done: int, **changes: Any) -> None:
        self.asked = (copy.deepcopy(state), done, copy.deepcopy(changes))
        super().checkpoint(state, done, **changes)

    def progress(
        self, state: dict[str, Any], done: int, **changes: Any
    ) -> "jobs_module.ProgressSave":
        self.asked = (copy.deepcopy(state), done, copy.deepcopy(changes))
        return super().progress(state, done, **changes)

    def saved(self, saved: Saved) -> None:
        assert self.asked is not None
        self.saves.append(self.asked)
        super().saved(saved)


def claimed_context(store: Any, job_id: str) -> Recording:
    job = claim_job(store, job_id, "t", LEASE_MS)
    assert job is not None
    return Recording(store, DedupPolicy(), job, threading.Event(), lambda _: None)


def test_a_checkpoint_save_writes_the_position_and_counts_only(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Progress is saved after each batch (two items here), the failures only when they grow."""
    monkeypatch.setattr(batches_module, "BATCH_ITEMS", 2)
    params = {
        "wing": "w",
        "room": "r",
        "items": [
            {"content": "A", "name": "plan"},
            {"content": "B", "name": "plan"},  # the name is taken: a failed item
            {"content": "C"},
        ],
    }
    job_id = create_job(store, "checkpoint", params, total=3).id
    context = claimed_context(store, job_id)
    with recording_statements() as watch:
        result = run_checkpoint(context)
    failure = {"index": 1, "code": "palace::drawer_name_taken"}
    assert [(state, done) for state, done, _ in context.saves] == [
        ({"next": 2, "stored": 1, "duplicates": 0}, 2),
        ({"next": 3, "stored": 2, "duplicates": 0}, 3),
    ]
    written = [
        {name: [{k: f[k] for k in failure} for f in value] for name, value in changes.items()}
        for _, _, changes in context.saves
    ]
    assert written == [{"failures": [failure]}, {}]  # the failures only when they grow
    assert [{k: f[k] for k in failure} for f in result["failed"]] == [failure]
    # The first batch's last part (the second "plan") stores nothing: its save is a statement of
    # its own, in the batch's unit; the second batch's `create_drawers` saves its progress.
    assert watch.names.count("save_job_progress") == 1
    assert watch.names.count("create_drawers") == 2  # one write statement per batch
    assert watch.names.count("drawers_by_ids") == 1  # stored before a stop: the first batch only
    assert "update_job" not in watch.names and "job_by_id" not in watch.names
    saved = [result[1] for result in watch.results("write_drawers")]  # type: ignore[index]
    assert saved == [Saved("running", held=True)] * 2  # never the job
    stored = get_job(store, job_id)
    assert stored.state == {"next": 3, "stored": 2, "duplicates": 0}
    assert [{k: f[k] for k in failure} for f in stored.failures] == [failure]


def test_a_checkpoint_batch_saves_its_progress_in_its_own_statement(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch that stores something runs one write statement, which saves the job's progress
    too: no `save_job_progress` round trip of its own."""
    monkeypatch.setattr(batches_module, "BATCH_ITEMS", 2)
    contents = ["alpha one", "beta two", "alpha one", "gamma three", "beta two", "delta four"]
    params = {"wing": "w", "room": "r", "items": [{"content": c} for c in contents]}
    job_id = create_job(store, "checkpoint", params, total=len(contents)).id
    context = claimed_context(store, job_id)
    with recording_statements() as watch:
        result = run_checkpoint(context)
    assert result == {"items": 6, "stored": 4, "duplicates": 2, "failed": []}
    assert [name for name in watch.names if name in WRITES] == ["create_drawers"] * 3
    assert [(state, done) for state, done, _ in context.saves] == [
        ({"next": 2, "stored": 2, "duplicates": 0}, 2),
        ({"next": 4, "stored": 3, "duplicates": 1}, 4),
        ({"next": 6, "stored": 4, "duplicates": 2}, 6),
    ]
    job = get_job(store, job_id)
    assert (job.state, job.progress_done) == ({"next": 6, "stored": 4, "duplicates": 2}, 6)


WRITES = ("create_drawers", "save_job_progress", "create_drawer")


class Crash(Exception):
    """The service died while a batch was written."""


class CrashAfter:
    """Subscribed to the statement hook: dies once the `at`-th `create_drawers` has run (on
    FalkorDB it committed; on Neo4j its transaction had not, and rolls back)."""

    def __init__(self, at: int) -> None:
        self.at, self.seen = at, 0

    def statement(self, name: str, seconds: float, failed: bool) -> None:
        if name == "create_drawers" and not failed:
            self.seen += 1
            if self.seen == self.at:
                raise Crash

    def unit(self, use_case: str, result: object) -> None:
        pass


@pytest.mark.parametrize("at", [1, 2, 3])
def test_a_checkpoint_resumed_after_a_crash_counts_as_if_never_stopped(
    store: Any, monkeypatch: pytest.MonkeyPatch, at: int
) -> None:
    """A batch and its progress are one write: whatever a crash during a batch's write left,
    the saved progress covers exactly the items stored. Only the batch after the last save can
    hold items stored before the crash (a batch whose names repeat is written in parts): the
    resumed run reads which of its ids exist for its first batch alone, and ends as an
    uninterrupted run would (no drawer stored twice, the same counts)."""
    monkeypatch.setattr(batches_module, "BATCH_ITEMS", 2)
    contents = ["alpha one", "beta two", "alpha one", "gamma three", "beta two", "delta four"]
    copies = {2, 4}
    params = {"wing": "w", "room": "r", "items": [{"content": c} for c in contents]}
    job_id = create_job(store, "checkpoint", params, total=len(contents)).id
    _run_until_crash(store, job_id, at)
    saved = get_job(store, job_id).state.get("next", 0)
    assert saved in (2 * (at - 1), 2 * at)  # the batch of the crash: both or neither
    stored = {row["id"] for row in store.run_text("MATCH (d:Drawer) RETURN d.id AS id", {})}
    assert stored == {item_id(job_id, i) for i in range(saved) if i not in copies}
    resumed = claim_job(store, job_id, "t", LEASE_MS)
    assert resumed is not None and resumed.state.get("next", 0) == saved
    context = Recording(store, DedupPolicy(), resumed, threading.Event(), lambda _: None)
    with recording_statements() as watch:
        result = run_checkpoint(context)
    assert result == {"items": 6, "stored": 4, "duplicates": 2, "failed": []}
    assert drawer_count(store) == 4
    assert watch.names.count("drawers_by_ids") == int(saved < len(contents))  # none left: none
    assert [done for _, done, _ in context.saves] == list(range(saved + 2, 7, 2))


def _run_until_crash(store: Any, job_id: str, statements: int) -> None:
    """Claim the job and run its checkpoint until the process "dies" after `statements`
    `create_drawers` statements."""
    job = claim_job(store, job_id, "t", LEASE_MS)
    assert job is not None
    crashing = Recording(store, DedupPolicy(), job, threading.Event(), lambda _: None)
    crash = CrashAfter(statements)
    observe.subscribe(crash)
    try:
        with pytest.raises(Crash):
            run_checkpoint(crashing)
    finally:
        observe.unsubscribe(crash)


def test_a_checkpoint_crashed_between_the_parts_of_a_batch_resumes_exactly(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch whose name repeats is written in parts, each its own statement; on FalkorDB each
    commits alone, so a crash after the first leaves its drawer stored and the progress not
    saved. The resumed run finds it (`drawers_by_ids`) and counts it once."""
    monkeypatch.setattr(batches_module, "BATCH_ITEMS", 2)
    contents = [("one", None), ("two", None), ("plan a", "plan"), ("plan b", "plan")]
    params = {
        "wing": "w",
        "room": "r",
        "items": [{"content": c, **({"name": n} if n else {})} for c, n in contents],
    }
    job_id = create_job(store, "checkpoint", params, total=len(contents)).id
    # Dies after the first batch's one statement and the second batch's first part.
    _run_until_crash(store, job_id, 2)
    assert get_job(store, job_id).state.get("next") == 2
    resumed = claim_job(store, job_id, "t", LEASE_MS)
    assert resumed is not None
    context = Recording(store, DedupPolicy(), resumed, threading.Event(), lambda _: None)
    result = run_checkpoint(context)
    failure = {"index": 3, "code": "palace::drawer_name_taken"}
    assert {k: result[k] for k in ("items", "stored", "duplicates")} == {
        "items": 4,
        "stored": 3,
        "duplicates": 0,
    }
    assert [{k: f[k] for k in failure} for f in result["failed"]] == [failure]
    assert drawer_count(store) == 3


def test_a_mining_save_writes_the_file_list_once(store: Any, tmp_path: Path) -> None:
    for name in ("a.md", "b.md", "c.md"):
        (tmp_path / name).write_text(f"The notes of {name}, each its own.")
    params = {"path": str(tmp_path), "wing": "docs", "room": "notes"}
    job_id = create_job(store, "mine", params, total=None).id
    context = claimed_context(store, job_id)
    with recording_statements() as watch:
        run_mine(context)
    assert watch.names.count("drawers_by_ids") == 1  # stored before a stop: the first file only
    assert [changes for _, _, changes in context.saves] == [
        {"files": ["a.md", "b.md", "c.md"], "progress_total": 3},
        {},
        {},
    ]
    assert all("files" not in state for state, _, _ in context.saves)
    stored = get_job(store, job_id)
    assert (stored.files, stored.progress_done, stored.progress_total) == (
        ["a.md", "b.md", "c.md"],
        3,
        3,
    )
    assert stored.state["next"] == 3 and "files" not in stored.state


def test_reading_a_checkpoint_job_leaves_its_items_in_the_graph(store: Any) -> None:
    """Only the claim hands out the items; a poll of a job reads their number (design §4.4)."""
    job_id = a_job(store, items=3)
    reads = [
        get_job(store, job_id),
        next(job for job in recent_jobs(store, 50) if job.id == job_id),
        next(job for job in unfinished_jobs(store) if job.id == job_id),
        update_job(store, job_id, progress_total=3),
    ]
    assert [(job.params, job.item_count) for job in reads] == [({"wing": "w", "room": "r"}, 3)] * 4
    claimed = claim_job(store, job_id, "a", LEASE_MS)
    assert claimed is not None and claimed.item_count == 3
    assert claimed.params == {
        "wing": "w",
        "room": "r",
        "items": [{"content": "item 0"}, {"content": "item 1"}, {"content": "item 2"}],
    }


def test_a_checkpoint_stored_with_its_items_among_its_params_still_runs(store: Any) -> None:
    """Jobs queued before the items were stored apart keep them in `params`."""
    params = {"wing": "w", "room": "r", "items": [{"content": "old A"}, {"content": "old A"}]}
    props = {
        "id": "job-from-before",
        "kind": "checkpoint",
        "status": "queued",
        "params": json.dumps(params),
        "progress_done": 0,
        "progress_total": 2,
        "created_at": NOW,
    }
    store.write(lambda tx: tx.run("create_job", props=props), use_case="create_job")
    read = get_job(store, "job-from-before")
    assert (read.params, read.item_count) == (params, None)
    result = run_checkpoint(claimed_context(store, "job-from-before"))
    assert result == {"items": 2, "stored": 1, "duplicates": 1, "failed": []}


def test_a_save_by_an_owner_that_lost_the_job_writes_nothing(store: Any) -> None:
    job_id = a_job(store, items=1)
    lost = claim_job(store, job_id, "a", LEASE_MS)
    assert lost is not None
    update_job(store, job_id, lease_expires=0)  # a's lease ran out
    assert claim_job(store, job_id, "b", LEASE_MS) is not None
    saved = save_job_progress(store, job_id, "a", lost.claim, progress_done=1)
    assert (saved.status, saved.held) == ("running", False)
    assert get_job(store, job_id).progress_done == 0
    with pytest.raises(JobNotFound):
        save_job_progress(store, "no-such-job", "a", 1, progress_done=1)


def test_a_save_of_an_earlier_claim_by_the_same_owner_writes_nothing(store: Any) -> None:
    """The fencing token: a runner restarted under the same owner name claimed the job again;
    what its earlier run still writes is refused."""
    job_id = a_job(store, items=1)
    earlier = claim_job(store, job_id, "svc", LEASE_MS)
    later = claim_job(store, job_id, "svc", LEASE_MS)
    assert earlier is not None and later is not None and later.claim == earlier.claim + 1
    saved = save_job_progress(store, job_id, "svc", earlier.claim, progress_done=1)
    assert (saved.status, saved.held) == ("running", False)
    assert not renew_job_lease(store, job_id, "svc", earlier.claim, LEASE_MS)
    assert not end_job(store, job_id, "svc", earlier.claim, status="succeeded")
    assert save_job_progress(store, job_id, "svc", later.claim, progress_done=1).held
    job = get_job(store, job_id)
    assert (job.status, job.progress_done, job.owner) == ("running", 1, "svc")


def test_cancelling_a_queued_job_keeps_runners_off_it(store: Any) -> None:
    job_id = a_job(store, items=2)
    cancelled, changed = cancel_job(store, job_id)
    assert (cancelled.status, cancelled.finished_at is not None, changed) == (
        "cancelled",
        True,
        True,
    )
    assert claim_job(store, job_id, "a", LEASE_MS) is None
    again, changed = cancel_job(store, job_id)
    assert (again.status, again.finished_at, changed) == ("cancelled", cancelled.finished_at, False)
    with pytest.raises(JobNotFound):
        cancel_job(store, "no-such-job")


def test_a_running_job_cancelled_elsewhere_stops_at_the_next_save(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cancel is made as another instance would make it, once the first batch (one item
    here) is stored with its progress: the runner sees it at its next save, which the second
    batch's statement makes, and stops; the items it stored stay."""
    monkeypatch.setattr(batches_module, "BATCH_ITEMS", 1)
    job_id = a_job(store, items=20)
    runner = a_runner(store, written=lambda _: cancel_job(store, job_id))
    runner.start()
    try:
        runner.submit(job_id)
        job = wait_until(store, job_id, "cancelled")
        deadline = time.monotonic() + WAIT_SECONDS
        while get_job(store, job_id).owner is not None and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        runner.stop()
    job = get_job(store, job_id)
    assert (job.status, job.progress_done, job.owner, job.result) == ("cancelled", 2, None, None)
    assert drawer_count(store) == 2


def test_a_job_whose_service_died_twice_is_failed_at_the_third_start(store: Any) -> None:
    """Each claim of a job found `running` follows a death of its owner (on the embedded
    database a restarted service has the same owner name)."""
    job_id = a_job(store, items=1)
    first = claim_job(store, job_id, "svc", LEASE_MS)
    assert first is not None and first.attempts == 1
    second = claim_job(store, job_id, "svc", LEASE_MS)  # the service died; restarted
    assert second is not None and (second.status, second.attempts) == ("running", 2)
    third = claim_job(store, job_id, "svc", LEASE_MS)  # died again: not a third run
    assert third is not None
    assert (third.status, third.owner, third.finished_at is not None) == ("failed", None, True)
    assert third.error is not None
    assert third.error["message"] == (
        f"the service stopped during each of its last {MAX_STARTS} runs; not resumed again"
    )
    assert claim_job(store, job_id, "svc", LEASE_MS) is None


def test_clean_stops_and_database_pauses_are_not_deaths(store: Any) -> None:
    job_id = a_job(store, items=1)
    for _ in range(3):
        assert claim_job(store, job_id, "svc", LEASE_MS) is not None
        update_job(store, job_id, status="queued", attempts=0, owner=None, lease_expires=None)
    assert claim_job(store, job_id, "svc", LEASE_MS) is not None
    for _ in range(3):  # the runner's own retries while its database was away
        job = claim_job(store, job_id, "svc", LEASE_MS, paused=True)
        assert job is not None and job.status == "running"
    assert get_job(store, job_id).attempts == 1


def test_a_runner_fails_a_job_found_running_after_two_deaths_instead_of_running_it(
    store: Any,
) -> None:
    job_id = a_job(store, items=3)
    update_job(store, job_id, status="running", owner="dead", lease_expires=0, attempts=2)
    runner = a_runner(store)
    runner.start()
    try:
        job = wait_until(store, job_id, "failed", "succeeded")
    finally:
        runner.stop()
    assert (job.status, job.attempts, job.owner) == ("failed", 3, None)
    assert drawer_count(store) == 0


def test_a_job_whose_node_disappeared_does_not_stop_the_runner(store: Any) -> None:
    doomed = a_job(store, items=3)

    def delete_the_job(_: str) -> None:
        store.run_text("MATCH (j:Job {id: $id}) DETACH DELETE j", {"id": doomed})

    runner = a_runner(store, written=delete_the_job)
    runner.start()
    try:
        runner.submit(doomed)
        later = a_job(store, items=0)
        runner.submit(later)
        job = wait_until(store, later, "succeeded", "failed")
    finally:
        runner.stop()
    assert job.status == "succeeded"
    with pytest.raises(JobNotFound):
        get_job(store, doomed)


def finished_job(store: Any, status: str, days_ago: float) -> str:
    job_id = a_job(store, items=0)
    when = (datetime.now(UTC) - timedelta(days=days_ago)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    update_job(store, job_id, status=status, finished_at=when)
    return job_id


def remaining(store: Any) -> set[str]:
    return {row["id"] for row in store.run_text("MATCH (j:Job) RETURN j.id AS id", {})}


def test_finished_jobs_older_than_30_days_are_pruned(store: Any) -> None:
    old = [finished_job(store, status, 31) for status in ("succeeded", "failed", "cancelled")]
    kept = [finished_job(store, "succeeded", 29), a_job(store, items=0)]
    update_job(store, kept[1], created_at="2020-01-01T00:00:00.000000Z")  # old but queued
    assert prune_jobs(store) == len(old)
    assert remaining(store) == set(kept)
    assert prune_jobs(store) == 0


def test_the_runner_prunes_at_start_and_periodically(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    at_start = finished_job(store, "succeeded", 40)
    monkeypatch.setattr(runner_module, "PRUNE_SECONDS", 0.2)
    runner = a_runner(store)
    runner.start()
    try:
        assert remaining(store) == set()
        later = finished_job(store, "failed", 40)
        deadline = time.monotonic() + WAIT_SECONDS
        while later in remaining(store) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        runner.stop()
    assert at_start not in remaining(store) and later not in remaining(store)


def test_a_job_read_torn_by_the_statement_that_finished_it_is_read_again(store: Any) -> None:
    """Neo4j may show a reader part of a statement's changes to one node (`graph.jobs._whole`):
    a job `succeeded` without its result is read again, until the read is whole."""
    job = create_job(store, "checkpoint", {"wing": "w", "room": "r"}, None)
    update_job(store, job.id, status="succeeded", result={"stored": 1}, finished_at="now")
    reads: list[Job] = []

    def torn_once(tx: Any) -> list[Job]:
        whole = jobs_module._get(tx, job.id)
        reads.append(whole)
        return [dataclasses.replace(whole, result=None)] if len(reads) == 1 else [whole]

    [seen] = jobs_module._whole(store, torn_once, "test")
    assert seen.result == {"stored": 1} and len(reads) == 2
    assert jobs_module._whole(store, lambda tx: [jobs_module._get(tx, job.id)], "test") == [
        get_job(store, job.id)
    ]


def test_a_finished_job_is_taken_whole_only_with_what_finished_it() -> None:
    base = Job("j", "mine", "succeeded", {}, 0, None, {"files": 1}, None, {}, "t0", "t1", "t2")
    assert jobs_module._finished_whole(base)
    assert not jobs_module._finished_whole(dataclasses.replace(base, result=None))
    assert not jobs_module._finished_whole(dataclasses.replace(base, finished_at=None))
    failed = dataclasses.replace(base, status="failed", result=None, error={"code": "x"})
    assert jobs_module._finished_whole(failed)
    assert not jobs_module._finished_whole(dataclasses.replace(failed, error=None))
    running = dataclasses.replace(base, status="running", result=None, finished_at=None)
    assert jobs_module._finished_whole(running)
