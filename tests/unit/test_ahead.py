"""Jobs' texts prepared ahead by a worker process: the same answers as on the job's thread, and
the job's own preparation wherever the worker cannot answer (`api.service.jobs.ahead`)."""

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator

import pytest

from castlegraph.api.service.jobs.ahead import MIN_BATCHES, AheadPreparer
from castlegraph.resolver.drawers import prepare_texts

THRESHOLD = 0.9
Batches = list[list[tuple[str, str, str]]]


def _batches(count: int, size: int = 3) -> Batches:
    texts = [
        f"note {n}: the storage engine flushes its write-ahead log every {n % 7} seconds"
        if n % 3
        else f"Größe {n}: la journalisation écrit avant — naïve café, 東京 {n % 5}"
        for n in range(count * size)
    ]
    return [[("wing", f"room-{n % 2}", text) for text in texts[n : n + size]]
            for n in range(0, len(texts), size)]  # fmt: skip


@pytest.fixture
def preparer() -> Iterator[AheadPreparer]:
    ahead = AheadPreparer(THRESHOLD)
    yield ahead
    ahead.close()


def test_the_worker_answers_what_the_job_would_compute(preparer: AheadPreparer) -> None:
    batches = _batches(MIN_BATCHES + 2)
    answers = list(preparer.batches(batches))
    assert answers == [prepare_texts(batch, THRESHOLD) for batch in batches]
    assert preparer.worker_pid is not None


def test_a_small_job_prepares_its_batches_itself(preparer: AheadPreparer) -> None:
    assert list(preparer.batches(_batches(MIN_BATCHES - 1))) == [None] * (MIN_BATCHES - 1)
    assert preparer.worker_pid is None


def test_a_job_stopped_early_leaves_no_answer_to_the_next(preparer: AheadPreparer) -> None:
    stopped = preparer.batches(_batches(MIN_BATCHES + 3))
    next(stopped)
    next(stopped)
    stopped.close()  # the worker was asked for the third batch
    batches = _batches(MIN_BATCHES + 1, size=2)
    assert list(preparer.batches(batches)) == [prepare_texts(b, THRESHOLD) for b in batches]


def test_a_worker_that_dies_leaves_the_rest_to_the_job_and_the_next_job_gets_a_new_one(
    preparer: AheadPreparer, caplog: pytest.LogCaptureFixture
) -> None:
    batches = _batches(MIN_BATCHES + 2)
    running = preparer.batches(batches)
    assert next(running) == prepare_texts(batches[0], THRESHOLD)
    first = preparer.worker_pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    rest = list(running)
    # The second batch may have been answered before the kill; nothing after it is.
    assert rest[0] in (None, prepare_texts(batches[1], THRESHOLD))
    assert rest[1:] == [None] * (len(batches) - 2)
    assert "preparing worker failed" in caplog.text
    again = list(preparer.batches(batches))
    assert again == [prepare_texts(batch, THRESHOLD) for batch in batches]
    assert preparer.worker_pid not in (None, first)


def test_a_worker_that_hangs_is_stopped_and_leaves_the_rest_to_the_job(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The first answer waits on the worker's start too (~0.15 s idle, past 0.5 s on a busy
    # machine): the limit leaves room for it, and then ends the wait on the hung worker.
    preparer = AheadPreparer(THRESHOLD, exchange_seconds=3)
    try:
        batches = _batches(MIN_BATCHES + 2)
        running = preparer.batches(batches)
        assert next(running) == prepare_texts(batches[0], THRESHOLD)
        hung = preparer.worker_pid
        assert hung is not None
        os.kill(hung, signal.SIGSTOP)  # alive, and answering nothing more
        rest = list(running)
        assert rest[0] in (None, prepare_texts(batches[1], THRESHOLD))
        assert rest[1:] == [None] * (len(batches) - 2)
        assert "gave no answer in 3 s" in caplog.text
        assert preparer.worker_pid is None
        with pytest.raises(ProcessLookupError):
            os.kill(hung, 0)  # killed, and reaped
    finally:
        preparer.close()


def test_a_closed_preparer_starts_no_worker(preparer: AheadPreparer) -> None:
    preparer.close()
    assert list(preparer.batches(_batches(MIN_BATCHES))) == [None] * MIN_BATCHES
    assert preparer.worker_pid is None


def test_a_worker_stopped_and_continued_over_and_over_still_answers_every_batch() -> None:
    """`SIGSTOP` and `SIGCONT` (a profiler attaching, a paused container) cut large pipe writes
    short; each side writes the rest (`children.write_all`), so no answer is lost or torn,
    where the job used to wait for the rest of one for good."""
    preparer = AheadPreparer(THRESHOLD, exchange_seconds=20)
    words = [f"word{n}" for n in range(400)]
    batches = [
        [("w", "r", " ".join(words[(b + i) % 400 :] + words) * 40) for i in range(4)]
        for b in range(MIN_BATCHES + 4)
    ]  # ~0.5 MB a batch, well past a pipe's 64 KiB
    storming = threading.Event()
    storming.set()

    def storm() -> None:
        while storming.is_set():
            pid = preparer.worker_pid
            if pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGSTOP)
                    time.sleep(0.001)
                    os.kill(pid, signal.SIGCONT)
            time.sleep(0.001)

    stormer = threading.Thread(target=storm, daemon=True)
    stormer.start()
    try:
        answers = [list(preparer.batches(batches)) for _ in range(3)]
    finally:
        storming.clear()
        stormer.join()
        preparer.close()
    expected = [prepare_texts(batch, THRESHOLD) for batch in batches]
    assert answers == [expected] * 3
