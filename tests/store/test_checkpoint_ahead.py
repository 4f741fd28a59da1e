"""A checkpoint whose texts a worker process prepared ahead (`api.service.jobs.ahead`) stores,
counts and links exactly what one prepared on the job's own thread does, on every backend."""

import random
import string
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from castlegraph.api.service.jobs.ahead import MIN_BATCHES, AheadPreparer
from castlegraph.api.service.jobs.batches import BATCH_ITEMS
from castlegraph.api.service.jobs.checkpoint import run_checkpoint
from castlegraph.api.service.jobs.context import JobContext
from castlegraph.api.service.jobs.runner import RELEASED
from castlegraph.graph.drawers.drawer_request import DedupPolicy
from castlegraph.graph.jobs import claim_job, create_job, end_job, get_job, item_id

LEASE_MS = 3_600_000


def _items(seed: int = 3) -> list[str]:
    """Originals (random words, so no two are alike), near copies (one letter changed) and
    exact copies of them, mixed."""
    rng = random.Random(seed)
    texts: list[str] = []
    while len(texts) < (MIN_BATCHES + 1) * BATCH_ITEMS:
        roll = rng.random()
        if texts and roll < 0.2:
            texts.append(rng.choice(texts))
        elif texts and roll < 0.45:
            text = list(rng.choice(texts))
            place = rng.randrange(len(text))
            text[place] = "xq"[text[place] == "x"]
            texts.append("".join(text))
        else:
            words = ("".join(rng.choices(string.ascii_lowercase, k=6)) for _ in range(8))
            texts.append(" ".join(words))
    return texts


@pytest.fixture
def preparer() -> Iterator[AheadPreparer]:
    ahead = AheadPreparer(DedupPolicy().near_threshold)
    yield ahead
    ahead.close()


def _run(store: Any, room: str, texts: list[str], preparer: AheadPreparer | None) -> Any:
    params = {"wing": "w", "room": room, "items": [{"content": text} for text in texts]}
    job = claim_job(
        store, create_job(store, "checkpoint", params, total=len(texts)).id, "t", LEASE_MS
    )
    assert job is not None
    context = JobContext(
        store, DedupPolicy(), job, threading.Event(), lambda _: None, preparer=preparer
    )
    result = run_checkpoint(context)
    # Ended as the runner ends it: a job left running would hold up the next module's wipe,
    # which waits for every unfinished job (tests/support/app.py).
    assert end_job(store, job.id, "t", job.claim, status="succeeded", result=result, **RELEASED)
    assert get_job(store, job.id).status == "succeeded"
    return job.id, result


def _links(store: Any, room: str, job_id: str, count: int) -> set[tuple[int, int, str]]:
    """The room's SIMILAR_TO links as (item, item, kind)."""
    index = {item_id(job_id, i): i for i in range(count)}
    rows = store.run_text(
        "MATCH (a:Drawer {room: $room})-[s:SIMILAR_TO]->(b:Drawer) "
        "RETURN a.id AS a, b.id AS b, s.kind AS kind",
        {"room": room},
    )
    return {(index[row["a"]], index[row["b"]], row["kind"]) for row in rows}


def test_a_checkpoint_prepared_ahead_decides_as_one_prepared_by_the_job(
    store: Any, preparer: AheadPreparer
) -> None:
    texts = _items()
    ahead_job, ahead = _run(store, "ahead", texts, preparer)
    assert preparer.worker_pid is not None  # the worker did prepare it
    own_job, own = _run(store, "own", texts, None)
    assert ahead == own
    assert ahead["duplicates"] > 0 and ahead["stored"] + ahead["duplicates"] == len(texts)
    links = _links(store, "ahead", ahead_job, len(texts))
    assert links == _links(store, "own", own_job, len(texts))
    assert any(kind == "near" for _, _, kind in links)
