"""A JVM's (Neo4j's) JIT compiler at work, and a warm-up that waits for it to settle.

A fresh JVM runs a new workload interpreted, then HotSpot compiles its hot methods on threads of
its own: at 100 k entities Neo4j spent ~540 ms of CPU a mention batch over the first ten and
~125 from the fortieth on (2026-12-07). A benchmark of the steady state warms up until the
compiler threads are quiet, as a long-running server would be.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.service import stat_cpu_seconds

COMPILER_THREADS = ("C1 CompilerThre", "C2 CompilerThre")
"""HotSpot's compiler threads as /proc names them (a thread's name is cut at 15 bytes)."""
QUIET_SHARE = 0.025
"""A warm-up step is quiet when the compiler threads spent under 2.5 % of its wall time: 10 ms of
a 400 ms mention batch."""
QUIET_STEPS = 2
"""Quiet steps in a row that end a warm-up."""


def compiler_cpu_seconds(pid: int, proc: Path = Path("/proc")) -> float:
    """CPU time (user and system) that the JVM `pid`'s compiler threads alive now have spent:
    0.0 once it is gone. HotSpot stops extra compiler threads once they idle, and their time
    leaves the sum with them; the first of each kind lives as long as the JVM."""
    total = 0.0
    for task in (proc / str(pid) / "task").glob("*"):
        try:
            name = (task / "comm").read_text().rstrip("\n")
        except OSError:
            continue
        if name.startswith(COMPILER_THREADS):
            total += stat_cpu_seconds(task / "stat")
    return total


@dataclass(frozen=True, slots=True)
class WarmUp:
    """How a warm-up went: the steps it took and the compiler's CPU during each."""

    compiler_seconds: tuple[float, ...]
    wall_seconds: tuple[float, ...]

    @property
    def steps(self) -> int:
        return len(self.compiler_seconds)

    @property
    def quiet(self) -> bool:
        """Whether it ended on quiet steps rather than on its limit."""
        tail = list(zip(self.compiler_seconds, self.wall_seconds, strict=True))[-QUIET_STEPS:]
        return len(tail) == QUIET_STEPS and all(c < QUIET_SHARE * w for c, w in tail)

    @property
    def compiler_cpu_ms(self) -> list[float]:
        """The compiler's CPU during each step, in ms, as the results record it."""
        return [round(s * 1000, 1) for s in self.compiler_seconds]

    def summary(self, steps: str) -> str:
        """`48 batches, 10.7 s of JIT compiling, the compiler quiet` (`steps` names them)."""
        ending = "quiet" if self.quiet else "still at work"
        spent = sum(self.compiler_seconds)
        return f"{self.steps} {steps}, {spent:.1f} s of JIT compiling, the compiler {ending}"


def warm_up(
    step: Callable[[], None], compiler_seconds: Callable[[], float], *, least: int, most: int
) -> WarmUp:
    """Run `step` at least `least` times, then until `QUIET_STEPS` steps in a row each cost the
    compiler threads (`compiler_seconds`, a running total) under `QUIET_SHARE` of the step's
    wall time, or `most` steps in all. Without a JVM (a total that stays at 0) it stops after
    `least`."""
    spent: list[float] = []
    walls: list[float] = []
    while len(spent) < most:
        before, started = compiler_seconds(), time.perf_counter()
        step()
        walls.append(time.perf_counter() - started)
        spent.append(max(0.0, compiler_seconds() - before))
        done = WarmUp(tuple(spent), tuple(walls))
        if done.steps >= least and done.quiet:
            return done
    return WarmUp(tuple(spent), tuple(walls))
