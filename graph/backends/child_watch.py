"""Whether a database child is working or stuck: the start's wait, the watchdog's patience.

Both judge a child that does not answer by its CPU time (design §2.1): one that uses the CPU is
working (reading its file, rebuilding indexes, a long command on a busy machine); one that has
used none for a while is stopped or stuck. A child of the service is killed when the service
dies (`die_with_parent`).
"""

import ctypes
import os
import signal
import sys
from dataclasses import dataclass, field
from enum import Enum

_PR_SET_PDEATHSIG = 1


class Answer(Enum):
    """What one PING of the child got back."""

    LOADING = "loading"
    """A `LOADING` error reply: it is reading its append-only file."""
    SILENT = "silent"
    """No answer within the probe's timeout: busy (rebuilding indexes) or hung."""
    REFUSED = "refused"
    """No connection: not listening (yet)."""


@dataclass
class Idle:
    """How long a process's CPU time has not moved, from successive readings of it (a lower
    reading is another process, a restarted child: moved too)."""

    _cpu: float | None = None
    _moved: float = 0.0

    def seconds(self, now: float, cpu_seconds: float) -> float:
        if cpu_seconds != self._cpu:
            self._cpu, self._moved = cpu_seconds, now
        return now - self._moved


@dataclass
class StartWait:
    """The verdicts of one start: call `verdict` after each PING that found it not ready.

    A redis-server child listens at once, then reads its append-only file before it serves
    (answering `LOADING`, or nothing while FalkorDB rebuilds the graph's indexes): minutes on a
    large palace, so a fixed deadline for the whole start would refuse exactly the palaces that
    matter most. Until the child listens, `first_sign_seconds` applies: one that never listens
    is broken. Once it listens it may take as long as it keeps working: its CPU time must move
    within `stalled_seconds`. Without CPU times (no /proc) the fixed deadline covers the start.
    """

    started: float
    first_sign_seconds: float
    stalled_seconds: float
    listening_since: float | None = None
    stalled: bool = False
    """Whether the verdict given was a stall (it listened, then stopped using the CPU)."""
    _idle: Idle = field(default_factory=Idle)

    def verdict(self, now: float, answer: Answer, cpu_seconds: float | None) -> str | None:
        """None to keep waiting, else why to give up (for the error message)."""
        if cpu_seconds is None:
            if now - self.started > self.first_sign_seconds:
                return f"did not become ready within {self.first_sign_seconds:.0f} s"
            return None
        idle = self._idle.seconds(now, cpu_seconds)
        if answer is not Answer.REFUSED and self.listening_since is None:
            self.listening_since = now
        if self.listening_since is None:
            if now - self.started > self.first_sign_seconds:
                return f"did not answer within {self.first_sign_seconds:.0f} s"
            return None
        if idle > self.stalled_seconds:
            self.stalled = True
            return (
                f"stopped making progress reading its data: no CPU time used for "
                f"{self.stalled_seconds:.0f} s, {now - self.listening_since:.0f} s after it "
                "began to listen"
            )
        return None


@dataclass
class Silence:
    """A running child's unanswered PINGs, for the watchdog: hung once it has been silent for
    `hung_seconds` without using the CPU. A child busy with a long command on a loaded machine
    answers late but works; killing it would lose the command and cost a restart (the file is
    read again: minutes on a large palace). Without CPU times, silence alone decides."""

    hung_seconds: float
    _since: float | None = None
    _idle: Idle = field(default_factory=Idle)

    def answered(self) -> None:
        self._since = None

    def hung(self, now: float, cpu_seconds: float | None) -> bool:
        """After an unanswered PING: whether the child is hung."""
        if self._since is None:
            self._since = now
        silent = now - self._since
        idle = silent if cpu_seconds is None else self._idle.seconds(now, cpu_seconds)
        return min(silent, idle) >= self.hung_seconds


def cpu_seconds(pid: int) -> float | None:
    """A process's CPU time so far (user + system), from /proc; None where there is none."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the command's closing parenthesis: state is field 3 of stat(5), utime 14, stime 15.
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def die_with_parent(parent: int) -> None:
    """In a child of the service: be killed (SIGKILL) when the service's thread that started it
    ends, which the service's death ends too (Linux's `PR_SET_PDEATHSIG`; elsewhere nothing).
    A parent that died before this took effect is caught by comparing the parent's pid."""
    if not sys.platform.startswith("linux"):
        return
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)
