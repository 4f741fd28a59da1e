"""A job runs on one instance at a time: claims, leases and take-over (every backend available).

Several castlegraph instances share one Neo4j; each runner claims a job before it runs it, and
a claim whose lease nobody renewed (its owner died) can be taken over.
"""

import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from castlegraph.api.service.jobs import runner as runner_module
from castlegraph.api.service.jobs.runner import JobRunner
from castlegraph.graph.drawers.drawer_request import DedupPolicy
from castlegraph.graph.jobs import claim_job, create_job, get_job, renew_job_lease, update_job
from tests.support.holding import holding_first

EARLY, NOW, LATER = "2026-01-01T00:00:00.000000Z", "2026-01-01T00:01:00.000000Z", "2099-01-01"


def a_job(store: Any, items: int = 0) -> str:
    params = {"wing": "w", "room": "r", "items": [{"content": f"item {i}"} for i in range(items)]}
    return create_job(store, "checkpoint", params, total=items).id


def test_a_live_lease_keeps_others_out_and_an_expired_one_lets_them_in(store: Any) -> None:
    job_id = a_job(store)
    first = claim_job(store, job_id, "a", EARLY, NOW)
    assert first is not None
    assert (first.owner, first.status, first.attempts) == ("a", "running", 1)
    assert claim_job(store, job_id, "b", EARLY, LATER) is None  # a's lease runs until NOW
    assert renew_job_lease(store, job_id, "b", LATER) is False
    taken = claim_job(store, job_id, "b", LATER, LATER + "T00:00:30Z")  # a's lease ran out
    assert taken is not None
    assert (taken.owner, taken.attempts) == ("b", 2)
    assert renew_job_lease(store, job_id, "a", LATER) is False  # a learns it lost the job
    update_job(store, job_id, status="succeeded", owner=None, lease_until=None)
    assert claim_job(store, job_id, "c", LATER, LATER) is None  # finished jobs stay finished


def test_two_instances_claiming_at_once_get_the_job_once(store: Any) -> None:
    job_id = a_job(store)
    update_job(store, job_id, owner="dead", lease_until=EARLY)  # its owner died long ago
    with holding_first("claim_job") as hold, ThreadPoolExecutor(max_workers=2) as pool:
        first = pool.submit(claim_job, store, job_id, "a", NOW, LATER)
        assert hold.holding.wait(timeout=30)
        second = pool.submit(claim_job, store, job_id, "b", NOW, LATER)
        time.sleep(0.5)  # b reaches the job while a's claim has not committed
        hold.release.set()
        owners = [claim.owner if claim else None for claim in (first.result(), second.result())]
    assert owners == ["a", None]
    assert get_job(store, job_id).attempts == 1


def test_two_runners_on_one_graph_run_a_queued_job_once(store: Any) -> None:
    job_id = a_job(store, items=30)
    runners = [JobRunner(lambda: store, DedupPolicy(), lambda _: None, name) for name in "ab"]
    for runner in runners:
        runner.start()  # both find the queued job at start
    deadline = time.monotonic() + 60
    while get_job(store, job_id).status != "succeeded" and time.monotonic() < deadline:
        time.sleep(0.05)
    for runner in runners:
        runner.stop()
    job = get_job(store, job_id)
    assert (job.status, job.attempts, job.owner) == ("succeeded", 1, None)
    assert job.result == {"items": 30, "stored": 30, "duplicates": 0, "failed": []}
    rows = store.run_text("MATCH (d:Drawer) RETURN count(d) AS n", {})
    assert rows[0]["n"] == 30


def test_a_runner_takes_over_a_job_whose_owner_stopped_renewing(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner died mid-job: its lease runs out, and an idle runner's scan picks the job up
    and finishes it from its checkpointed state."""
    monkeypatch.setattr(runner_module, "SCAN_SECONDS", 0.2)
    job_id = a_job(store, items=5)
    soon = (datetime.now(UTC) + timedelta(seconds=3)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    update_job(store, job_id, status="running", owner="dead", lease_until=soon)
    survivor = JobRunner(lambda: store, DedupPolicy(), lambda _: None, "survivor")
    survivor.start()  # the lease is still live: not taken at start
    try:
        assert get_job(store, job_id).owner == "dead"
        deadline = time.monotonic() + 30
        while get_job(store, job_id).status != "succeeded" and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        survivor.stop()
    job = get_job(store, job_id)
    assert (job.status, job.attempts, job.result) == (
        "succeeded",
        1,
        {"items": 5, "stored": 5, "duplicates": 0, "failed": []},
    )


def test_a_job_that_vanishes_while_it_runs_does_not_stop_the_runner(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The graph is wiped under a running job (as the API tests do between tests): recording its
    end finds no job, and the next job must still run."""

    def vanishing(context: Any) -> dict[str, Any]:
        store.wipe()
        return {}

    monkeypatch.setitem(runner_module.EXECUTORS, "vanishing", vanishing)
    runner = JobRunner(lambda: store, DedupPolicy(), lambda _: None, "runner")
    runner.start()
    try:
        runner.submit(create_job(store, "vanishing", {}, total=None).id)
        deadline = time.monotonic() + 30
        while not runner.idle.wait(0.05) and time.monotonic() < deadline:
            pass
        job_id = a_job(store, items=2)
        runner.submit(job_id)
        while get_job(store, job_id).status != "succeeded" and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        runner.stop()
    assert get_job(store, job_id).result == {"items": 2, "stored": 2, "duplicates": 0, "failed": []}
