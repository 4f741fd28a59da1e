"""A job runs on one instance at a time: claims, leases and take-over (every backend available).

Several castlegraph instances share one Neo4j; each runner claims a job before it runs it, and
a claim whose lease nobody renewed (its owner died) can be taken over.
"""

import dataclasses
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from castlegraph.api.service.jobs import runner as runner_module
from castlegraph.api.service.jobs.runner import JobRunner
from castlegraph.graph.drawers.drawer_request import DedupPolicy
from castlegraph.graph.jobs import (
    Job,
    cancel_job,
    claim_job,
    create_job,
    end_job,
    get_job,
    renew_job_lease,
    save_job_progress,
)
from tests.support.holding import holding_first
from tests.support.jobs import update_job

LEASE_MS = 3_600_000
RAN_OUT = 0
"""A lease that ran out long ago (epoch ms on the database's clock)."""


def a_job(store: Any, items: int = 0) -> str:
    params = {"wing": "w", "room": "r", "items": [{"content": f"item {i}"} for i in range(items)]}
    return create_job(store, "checkpoint", params, total=items).id


def test_a_live_lease_keeps_others_out_and_an_expired_one_lets_them_in(store: Any) -> None:
    job_id = a_job(store)
    first = claim_job(store, job_id, "a", LEASE_MS)
    assert first is not None
    assert (first.owner, first.status, first.attempts, first.claim) == ("a", "running", 1, 1)
    assert claim_job(store, job_id, "b", LEASE_MS) is None  # a's lease runs for an hour
    assert renew_job_lease(store, job_id, "b", first.claim, LEASE_MS) is False
    update_job(store, job_id, lease_expires=RAN_OUT)  # a stopped renewing
    taken = claim_job(store, job_id, "b", LEASE_MS)
    assert taken is not None
    assert (taken.owner, taken.attempts, taken.claim) == ("b", 2, 2)
    assert renew_job_lease(store, job_id, "a", first.claim, LEASE_MS) is False  # a learns it
    assert renew_job_lease(store, job_id, "b", taken.claim, LEASE_MS) is True
    update_job(store, job_id, status="succeeded", owner=None, lease_expires=None)
    assert claim_job(store, job_id, "c", LEASE_MS) is None  # finished jobs stay finished


def test_leases_run_on_the_database_clock(store: Any) -> None:
    """A lease ends `lease_ms` after the database's own time, whatever the instance's clock
    says: renewing reads that clock again."""
    job_id = a_job(store)
    before = int(store.run_text("RETURN timestamp() AS now", {})[0]["now"])
    claimed = claim_job(store, job_id, "a", LEASE_MS)
    after = int(store.run_text("RETURN timestamp() AS now", {})[0]["now"])
    assert claimed is not None and claimed.lease_expires is not None
    assert before + LEASE_MS <= claimed.lease_expires <= after + LEASE_MS
    assert renew_job_lease(store, job_id, "a", claimed.claim, 2 * LEASE_MS)
    renewed = get_job(store, job_id).lease_expires
    assert renewed is not None and renewed >= before + 2 * LEASE_MS


def test_two_instances_claiming_at_once_get_the_job_once(store: Any) -> None:
    job_id = a_job(store)
    update_job(store, job_id, owner="dead", lease_expires=RAN_OUT)  # its owner died long ago
    with holding_first("claim_job") as hold, ThreadPoolExecutor(max_workers=2) as pool:
        first = pool.submit(claim_job, store, job_id, "a", LEASE_MS)
        assert hold.holding.wait(timeout=30)
        second = pool.submit(claim_job, store, job_id, "b", LEASE_MS)
        time.sleep(0.5)  # b reaches the job while a's claim has not committed
        hold.release.set()
        owners = [claim.owner if claim else None for claim in (first.result(), second.result())]
    assert owners == ["a", None]
    assert get_job(store, job_id).attempts == 1


def a_job_a_lost(store: Any) -> tuple[str, Job]:
    """A job `a` claimed, whose lease then ran out: `b` may take it over."""
    job_id = a_job(store, items=2)
    a = claim_job(store, job_id, "a", LEASE_MS)
    assert a is not None
    update_job(store, job_id, lease_expires=RAN_OUT)
    return job_id, a


ENDED_BY_A = {"owner": None, "lease_expires": None, "finished_at": "2026-01-01T00:00:00Z"}
STALE_WRITES: dict[str, Callable[[Any, Job], bool]] = {
    "renew": lambda store, a: renew_job_lease(store, a.id, "a", a.claim, LEASE_MS),
    "save": lambda store, a: save_job_progress(store, a.id, "a", a.claim, progress_done=42).held,
    "succeed": lambda store, a: end_job(
        store, a.id, "a", a.claim, status="succeeded", result={"stored": 2}, **ENDED_BY_A
    ),
    "fail": lambda store, a: end_job(
        store, a.id, "a", a.claim, status="failed", error={"code": "x"}, **ENDED_BY_A
    ),
    "requeue": lambda store, a: end_job(
        store, a.id, "a", a.claim, status="queued", attempts=0, owner=None, lease_expires=None
    ),
}


@pytest.mark.parametrize("write", STALE_WRITES)
def test_the_writes_of_an_owner_whose_job_is_being_taken_over_change_nothing(
    store: Any, write: str
) -> None:
    """b's take-over claim is held uncommitted while a, whose lease ran out, renews, saves or
    ends the job. a's write must wait for b's commit and then be refused: on Neo4j, a write that
    compared the owner before taking the job's lock renewed, saved onto or ended b's job."""
    job_id, a = a_job_a_lost(store)
    # Once on a job a never held: the statement's plan is made before the race, not in it.
    assert STALE_WRITES[write](store, dataclasses.replace(a, id=a_job(store))) is False
    with holding_first("claim_job") as hold, ThreadPoolExecutor(max_workers=2) as pool:
        taking = pool.submit(claim_job, store, job_id, "b", LEASE_MS)
        assert hold.holding.wait(timeout=30)
        stale = pool.submit(STALE_WRITES[write], store, a)
        time.sleep(0.5)  # a's write reaches the job while b's claim has not committed
        hold.release.set()
        b, written = taking.result(timeout=60), stale.result(timeout=60)
    assert b is not None and b.owner == "b"
    assert written is False
    job = get_job(store, job_id)
    assert (job.owner, job.claim, job.status, job.progress_done, job.result, job.error) == (
        "b",
        a.claim + 1,
        "running",
        0,
        None,
        None,
    )
    assert (job.lease_expires, job.finished_at, job.item_count) == (b.lease_expires, None, 2)


def test_a_claim_waits_for_a_renewal_held_uncommitted_and_finds_the_lease_live(
    store: Any,
) -> None:
    """a renews its lease just as it runs out, and b's claim meets that renewal uncommitted: it
    must wait, read the renewed lease, and leave the job to a."""
    job_id, a = a_job_a_lost(store)
    assert claim_job(store, a_job(store), "c", LEASE_MS) is not None  # its plan made before
    with holding_first("renew_job_lease") as hold, ThreadPoolExecutor(max_workers=2) as pool:
        renewing = pool.submit(renew_job_lease, store, job_id, "a", a.claim, LEASE_MS)
        assert hold.holding.wait(timeout=30)
        taking = pool.submit(claim_job, store, job_id, "b", LEASE_MS)
        time.sleep(0.5)  # b's claim reaches the job while a's renewal has not committed
        hold.release.set()
        renewed, b = renewing.result(timeout=60), taking.result(timeout=60)
    assert (renewed, b) == (True, None)
    job = get_job(store, job_id)
    assert (job.owner, job.claim, job.attempts) == ("a", a.claim, 1)


def test_a_cancel_meeting_the_end_of_a_run_uncommitted_leaves_the_end(store: Any) -> None:
    """The runner's success is held uncommitted when a cancel arrives: the cancel must read the
    job after that commit, find it finished, and change nothing."""
    job_id = a_job(store, items=2)
    a = claim_job(store, job_id, "a", LEASE_MS)
    assert a is not None
    cancel_job(store, a_job(store))  # the statement's plan is made before the race, not in it
    with holding_first("end_job") as hold, ThreadPoolExecutor(max_workers=2) as pool:
        ending = pool.submit(STALE_WRITES["succeed"], store, a)
        assert hold.holding.wait(timeout=30)
        cancelling = pool.submit(cancel_job, store, job_id)
        time.sleep(0.5)  # the cancel reaches the job while the end has not committed
        hold.release.set()
        ended, (cancelled, changed) = ending.result(timeout=60), cancelling.result(timeout=60)
    assert (ended, changed, cancelled.status, cancelled.result) == (
        True,
        False,
        "succeeded",
        {"stored": 2},
    )


def test_a_cancelled_job_is_not_ended_by_its_runner(store: Any) -> None:
    job_id = a_job(store, items=2)
    a = claim_job(store, job_id, "a", LEASE_MS)
    assert a is not None
    cancel_job(store, job_id)
    assert STALE_WRITES["succeed"](store, a) is False
    assert STALE_WRITES["requeue"](store, a) is False
    job = get_job(store, job_id)
    assert (job.status, job.result) == ("cancelled", None)


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


def test_a_runner_claims_and_renews_for_the_lease_it_was_given(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`graph.job_lease_seconds` reaches the claim and every renewal (three times a lease)."""
    seen: list[tuple[int, int]] = []

    def watched(context: Any) -> dict[str, Any]:
        for _ in range(3):  # the claim's lease, then after one renewal (every 1 s), another
            row = store.run_text(
                "MATCH (j:Job {id: $id}) RETURN j.lease_expires AS ends, timestamp() AS now",
                {"id": context.job.id},
            )[0]
            seen.append((int(row["ends"]), int(row["now"])))
            time.sleep(1.5)
        return {}

    monkeypatch.setitem(runner_module.EXECUTORS, "watched", watched)
    job_id = create_job(store, "watched", {}, total=None).id
    runner = JobRunner(lambda: store, DedupPolicy(), lambda _: None, "r", lease_seconds=3.0)
    runner.start()
    try:
        deadline = time.monotonic() + 30
        while get_job(store, job_id).status != "succeeded" and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        runner.stop()
    assert get_job(store, job_id).status == "succeeded"
    left = [ends - now for ends, now in seen]
    assert all(0 < ms <= 3000 for ms in left), left
    ends = [ends for ends, _ in seen]
    assert ends == sorted(set(ends)), ends  # renewed between each look


def test_a_runner_takes_over_a_job_whose_owner_stopped_renewing(store: Any) -> None:
    """The owner died mid-job: its lease runs out, and an idle runner's scan (three times a
    lease: every 0.2 s here) picks the job up and finishes it from its checkpointed state."""
    job_id = a_job(store, items=5)
    now = int(store.run_text("RETURN timestamp() AS now", {})[0]["now"])
    update_job(store, job_id, status="running", owner="dead", lease_expires=now + 3000)
    survivor = JobRunner(
        lambda: store, DedupPolicy(), lambda _: None, "survivor", lease_seconds=0.6
    )
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


def test_a_runner_whose_job_was_taken_over_mid_run_does_not_end_it(
    store: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """While the runner's executor works, its lease runs out and b takes the job over: the
    runner's success is refused, logged, and b's run stays as b left it."""

    def overtaken(context: Any) -> dict[str, Any]:
        update_job(store, context.job.id, lease_expires=RAN_OUT)
        assert claim_job(store, context.job.id, "b", LEASE_MS) is not None
        return {"stored": 1}

    monkeypatch.setitem(runner_module.EXECUTORS, "overtaken", overtaken)
    job_id = create_job(store, "overtaken", {}, total=None).id
    runner = JobRunner(lambda: store, DedupPolicy(), lambda _: None, "a")
    runner.start()
    try:
        deadline = time.monotonic() + 30
        while get_job(store, job_id).owner != "b" and time.monotonic() < deadline:
            time.sleep(0.05)
        while not runner.idle.wait(0.05) and time.monotonic() < deadline:
            pass
    finally:
        runner.stop()
    job = get_job(store, job_id)
    assert (job.status, job.owner, job.claim, job.result, job.finished_at) == (
        "running",
        "b",
        2,
        None,
        None,
    )
    assert f"job {job_id} was taken over or cancelled before its run ended" in caplog.text
    # b ends it, as its runner would: a job left running holds up the next module's wipe,
    # which waits for every unfinished job (tests/support/app.py).
    assert end_job(store, job_id, "b", 2, status="succeeded", result={}, **ENDED_BY_A)
