"""Jobs' texts prepared one batch ahead, in a worker process on the other core (design §4.4).

The worker, `python -m castlegraph.api.service.jobs.ahead CORE` (the service's core, `native` or
`python`: `resolver.core`), reads batches on its standard input
and writes them prepared (`resolver.drawers.prepare_text`) to its standard output as
length-prefixed pickles. A process, not a thread: a thread would only take turns with the
job's thread for the interpreter.
"""

import contextlib
import logging
import pickle
import struct
import subprocess
import sys
import threading
from collections.abc import Generator, Iterator, Sequence
from typing import IO, Any

from castlegraph.api.service.children import module_command, read_exactly, write_all
from castlegraph.resolver import core
from castlegraph.resolver.drawers import PreparedText, prepare_texts

log = logging.getLogger("castlegraph.jobs")

Place = tuple[str, str, str]
"""An item to prepare: (wing, room, content)."""

MIN_BATCHES = 4
"""Jobs of fewer batches prepare them on their own thread: starting the worker (~0.1 s) would
cost them more than it saves."""
EXCHANGE_SECONDS = 60.0
"""How long a job waits on the worker for one exchange (a batch handed over, or its answer)
before it takes the worker as hung, stops it and prepares the rest itself: the largest batch,
one item of 1 MiB, is prepared in ~1 s by the pure-Python core."""
_LENGTH = struct.Struct(">I")


class AheadPreparer:
    """One worker process, shared by the jobs of a runner (it runs one job at a time).

    Started on the first job large enough to need it and kept until the service stops; should
    the service die, it ends when its input closes. Only one batch is ever asked for and not
    yet read, so neither side blocks the other on a full pipe. Should it fail, the job prepares
    its batches itself, as small jobs always do, and the next job starts a new worker: the
    answer is the same either way (`prepare_text` is pure)."""

    def __init__(self, near_threshold: float, exchange_seconds: float = EXCHANGE_SECONDS) -> None:
        self._near_threshold = near_threshold
        self._exchange_seconds = exchange_seconds
        self._worker: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._closed = False

    @property
    def worker_pid(self) -> int | None:
        """The worker's process id, while one runs."""
        worker = self._worker
        return worker.pid if worker is not None else None

    def batches(
        self, batches: Sequence[Sequence[Place]]
    ) -> Generator[list[PreparedText] | None, None, None]:
        """Each batch's prepared texts, in order, or None for a batch the job is to prepare
        itself (a small job, or a worker that failed). The worker prepares the next batch
        while the job writes this one."""
        worker = self._started() if len(batches) >= MIN_BATCHES else None
        if worker is None:
            yield from (None for _ in batches)
            return
        pending = self._ask(worker, batches[0])
        """Whether an answer is on its way: a failed worker leaves the rest to the job."""
        try:
            for number in range(len(batches)):
                answer = self._answer(worker) if pending else None
                pending = answer is not None and number + 1 < len(batches)
                if pending:
                    pending = self._ask(worker, batches[number + 1])
                yield answer
        finally:
            if pending:  # closed early: the answer asked for is read, not left for the next job
                self._answer(worker)

    def _ask(self, worker: subprocess.Popen[bytes], batch: Sequence[Place]) -> bool:
        try:
            with self._watched(worker):
                _send(worker.stdin, (list(batch), self._near_threshold))
            return True
        except (OSError, ValueError) as error:  # ValueError: its pipe was closed
            self._failed(worker, error)
            return False

    def _answer(self, worker: subprocess.Popen[bytes]) -> list[PreparedText] | None:
        try:
            with self._watched(worker):
                answer: list[PreparedText] = _receive(worker.stdout)
            return answer
        except (OSError, EOFError, ValueError, pickle.UnpicklingError) as error:
            self._failed(worker, error)
            return None

    @contextlib.contextmanager
    def _watched(self, worker: subprocess.Popen[bytes]) -> Iterator[None]:
        """An exchange with the worker, which is killed should it outlast `exchange_seconds`:
        the job's read or write waiting on it then ends (end of file, broken pipe), where a
        hung worker held the job, and a stopping service waiting on the job, for good."""
        timer = threading.Timer(self._exchange_seconds, _hung, (worker, self._exchange_seconds))
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()

    def _started(self) -> subprocess.Popen[bytes] | None:
        with self._lock:
            if self._worker is None and not self._closed:
                try:
                    self._worker = subprocess.Popen(
                        # on the service's core: the answers are equal, the speed is not
                        module_command(__name__, core.running().name),
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        start_new_session=True,  # a terminal's Ctrl-C is the service's to handle
                    )
                except OSError as error:
                    log.warning("jobs prepare their items themselves: %s", error)
            return self._worker

    def _failed(self, worker: subprocess.Popen[bytes], error: BaseException) -> None:
        """The worker is of no more use: stopped; the next job starts another."""
        log.warning("the jobs' preparing worker failed (%s); the job prepares its items", error)
        with self._lock:
            if self._worker is worker:
                self._worker = None
        _stop(worker)

    def close(self) -> None:
        """Stop the worker (the service is stopping)."""
        with self._lock:
            worker, self._worker, self._closed = self._worker, None, True
        if worker is not None:
            _stop(worker)


def _hung(worker: subprocess.Popen[bytes], seconds: float) -> None:
    log.warning("the jobs' preparing worker gave no answer in %s s; stopping it", seconds)
    worker.kill()


def _stop(worker: subprocess.Popen[bytes]) -> None:
    """End it — it holds nothing worth a goodbye — then close its pipes: a read or a write
    still waiting on one of them (a job's, should the worker hang) ends with it."""
    worker.kill()
    worker.wait()
    for pipe in (worker.stdin, worker.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):  # what was left to flush to a dead worker
                pipe.close()


def _send(pipe: IO[bytes] | None, message: Any) -> None:
    if pipe is None:
        raise ValueError("no pipe")
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    write_all(pipe, _LENGTH.pack(len(data)) + data)


def _receive(pipe: IO[bytes] | None) -> Any:
    if pipe is None:
        raise ValueError("no pipe")
    (length,) = _LENGTH.unpack(read_exactly(pipe, _LENGTH.size))
    data = read_exactly(pipe, length)
    return pickle.loads(data)  # noqa: S301 - a pipe between this service and its own worker


def serve(source: IO[bytes], sink: IO[bytes]) -> None:
    """The worker's loop: each batch read from `source` prepared onto `sink`, until `source`
    ends."""
    while True:
        try:
            places, near_threshold = _receive(source)
        except EOFError:
            return
        _send(sink, prepare_texts(places, near_threshold))


if __name__ == "__main__":
    answers = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not land among the answers
    core.choose("native" if sys.argv[1:] == ["native"] else "python")
    serve(sys.stdin.buffer, answers)
