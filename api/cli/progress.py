"""Progress of long work (mining, checkpoints, migrations), drawn on stderr.

On a terminal: a `rich` progress bar with counts, rate and elapsed time, redrawn as the work
reports. Anywhere else (a pipe, a log file, CI): a plain line every few seconds and one at the
end, `mine: 12/40 files, 3.1 files/s`, which reads well in a log. Stderr either way, so
`--json` output on stdout stays a single JSON document.
"""

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

POLL_SECONDS = 0.2
LOG_SECONDS = 3.0


@dataclass(frozen=True, slots=True)
class Step:
    """What the work reported at one poll."""

    done: int
    total: int | None
    finished: bool


Poll = Callable[[], Step]


class RateColumn(ProgressColumn):
    def __init__(self, unit: str) -> None:
        super().__init__()
        self._unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        shown = f"{speed:.1f}" if speed is not None else "-"
        return Text(f"{shown} {self._unit}/s", style="progress.data.speed")


def follow(label: str, unit: str, poll: Poll, stream: TextIO | None = None) -> Step:
    """Poll every 0.2 s until the work is finished, showing its progress; the last step."""
    stream = stream if stream is not None else sys.stderr
    if stream.isatty():
        return _bar(label, unit, poll, stream)
    return _lines(label, unit, poll, stream)


def _bar(label: str, unit: str, poll: Poll, stream: TextIO) -> Step:
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        RateColumn(unit),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=Console(file=stream)) as bar:
        task = bar.add_task(label, total=None)
        while True:
            step = poll()
            bar.update(task, completed=step.done, total=step.total)
            if step.finished:
                return step
            time.sleep(POLL_SECONDS)


def line(label: str, unit: str, step: Step, seconds: float) -> str:
    """`mine: 12/40 files, 3.1 files/s` (`12 files` while the total is not known yet)."""
    count = f"{step.done}/{step.total}" if step.total is not None else f"{step.done}"
    rate = step.done / seconds if seconds > 0 else 0.0
    return f"{label}: {count} {unit}, {rate:.1f} {unit}/s"


def _lines(label: str, unit: str, poll: Poll, stream: TextIO) -> Step:
    started = time.monotonic()
    logged = started
    while True:
        step = poll()
        now = time.monotonic()
        if step.finished or now - logged >= LOG_SECONDS:
            print(line(label, unit, step, now - started), file=stream, flush=True)
            logged = now
        if step.finished:
            return step
        time.sleep(POLL_SECONDS)
