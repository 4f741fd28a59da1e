"""`bench.jit`: a benchmark on Neo4j warms up until the JVM's compiler threads are quiet, and
reads their CPU time from /proc."""

import os
from pathlib import Path

import pytest

from bench import jit

STEP_SECONDS = 0.4
"""Each step's wall time: a step is quiet under 10 ms of compiling (2.5 %)."""


class Compiler:
    """A running total of compiler CPU that grows by the next of `costs` at each step, and the
    wall clock `warm_up` reads, moved on by `STEP_SECONDS` a step."""

    def __init__(self, costs: list[float]) -> None:
        self.costs = iter(costs)
        self.total = 0.0
        self.steps = 0
        self.now = 0.0

    def step(self) -> None:
        self.steps += 1
        self.total += next(self.costs)
        self.now += STEP_SECONDS

    def seconds(self) -> float:
        return self.total

    def perf_counter(self) -> float:
        return self.now


def make(monkeypatch: pytest.MonkeyPatch, costs: list[float]) -> Compiler:
    fake = Compiler(costs)
    monkeypatch.setattr(jit.time, "perf_counter", fake.perf_counter)
    return fake


def test_it_warms_until_two_steps_in_a_row_are_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    compiler = make(monkeypatch, [0.5, 0.3, 0.004, 0.2, 0.009, 0.001, 0.5])

    warmed = jit.warm_up(compiler.step, compiler.seconds, least=2, most=80)

    assert compiler.steps == 6
    assert warmed.steps == 6
    assert warmed.quiet
    assert warmed.compiler_seconds == pytest.approx((0.5, 0.3, 0.004, 0.2, 0.009, 0.001))
    assert warmed.wall_seconds == pytest.approx((STEP_SECONDS,) * 6)


def test_quiet_is_a_share_of_the_step_so_longer_steps_allow_more_compiling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    costs = [0.5, 0.012, 0.012]  # 3 % of a 0.4 s step: not quiet; of a 0.8 s one it would be
    compiler = make(monkeypatch, costs)

    assert not jit.warm_up(compiler.step, compiler.seconds, least=2, most=3).quiet
    assert jit.WarmUp(tuple(costs), (0.8, 0.8, 0.8)).quiet


def test_without_a_jvm_it_stops_after_the_least_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    compiler = make(monkeypatch, [0.0] * 10)

    warmed = jit.warm_up(compiler.step, compiler.seconds, least=2, most=80)

    assert warmed.steps == 2
    assert warmed.quiet


def test_it_runs_the_least_steps_even_when_the_compiler_is_quiet_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compiler = make(monkeypatch, [0.0] * 10)

    assert jit.warm_up(compiler.step, compiler.seconds, least=5, most=80).steps == 5


def test_a_compiler_that_never_settles_stops_at_the_most_steps_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compiler = make(monkeypatch, [0.1] * 10)

    warmed = jit.warm_up(compiler.step, compiler.seconds, least=2, most=4)

    assert compiler.steps == 4
    assert not warmed.quiet


def test_a_compiler_thread_that_exits_counts_as_no_time_not_as_negative(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = iter(float(n) for n in range(100))
    monkeypatch.setattr(jit.time, "perf_counter", lambda: next(clock))
    totals = iter([1.0, 0.2, 0.2, 0.2, 0.2, 0.2])  # a thread with 0.8 s gone after step 1

    warmed = jit.warm_up(lambda: None, lambda: next(totals), least=2, most=80)

    assert warmed.compiler_seconds == (0.0, 0.0)


def _task(root: Path, tid: int, name: str, utime: int, stime: int) -> None:
    task = root / "4242" / "task" / str(tid)
    task.mkdir(parents=True)
    (task / "comm").write_text(name + "\n")
    fields = ["S", *["0"] * 10, str(utime), str(stime), *["0"] * 5]
    (task / "stat").write_text(f"{tid} ({name}) " + " ".join(fields) + "\n")


def test_compiler_cpu_sums_the_compiler_threads_only(tmp_path: Path) -> None:
    ticks = os.sysconf("SC_CLK_TCK")
    _task(tmp_path, 1, "java", 500, 50)
    _task(tmp_path, 2, "C2 CompilerThre", 3 * ticks, ticks)
    _task(tmp_path, 3, "C1 CompilerThre", ticks // 2, 0)
    _task(tmp_path, 4, "neo4j.BoltWorke", 900, 9)

    assert jit.compiler_cpu_seconds(4242, tmp_path) == pytest.approx(4 + (ticks // 2) / ticks)


def test_compiler_cpu_of_a_gone_jvm_is_zero(tmp_path: Path) -> None:
    assert jit.compiler_cpu_seconds(4242, tmp_path) == 0.0


def test_compiler_cpu_reads_a_live_process_without_failing() -> None:
    assert jit.compiler_cpu_seconds(os.getpid()) == 0.0  # Python has no HotSpot compiler


def test_a_warm_up_is_summed_up_in_one_line_and_recorded_in_ms() -> None:
    warmed = jit.WarmUp((0.5, 0.0014, 0.002), (0.4, 0.4, 0.4))

    assert warmed.summary("batches") == "3 batches, 0.5 s of JIT compiling, the compiler quiet"
    assert jit.WarmUp((0.5,), (0.4,)).summary("rounds").endswith("the compiler still at work")
    assert warmed.compiler_cpu_ms == [500.0, 1.4, 2.0]
