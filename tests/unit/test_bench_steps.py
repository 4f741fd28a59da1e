"""`bench.steps`, the step timer of the in-process profilers: it times the steps it is given,
on whichever thread calls them, counts their calls and puts every one back as it was."""

import threading
import time
from types import ModuleType

import pytest

from bench.steps import Steps


def _busy(seconds: float) -> None:
    """CPU time, not a sleep: the timer counts the calling thread's CPU."""
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


class Work:
    def method(self, n: int) -> int:
        _busy(0.02)
        return n + 1

    @classmethod
    def made(cls, n: int) -> int:
        return n * 2


def test_each_step_is_timed_and_counted_then_put_back() -> None:
    module = ModuleType("work")
    module.step = lambda: _busy(0.03)  # type: ignore[attr-defined]
    originals = (module.step, Work.__dict__["method"], Work.__dict__["made"])  # type: ignore[attr-defined]
    steps = Steps()
    with steps.timed([(module, "step"), (Work, "method"), (Work, "made")]):
        module.step()  # type: ignore[attr-defined]
        assert Work().method(1) == 2
        assert Work().method(2) == 3
        assert Work.made(4) == 8
    assert steps.calls == {"work.step": 1, "Work.method": 2, "Work.made": 1}
    assert steps.seconds["work.step"] >= 0.03
    assert steps.seconds["Work.method"] >= 0.04
    assert (module.step, Work.__dict__["method"], Work.__dict__["made"]) == originals  # type: ignore[attr-defined]
    assert isinstance(Work.__dict__["made"], classmethod)


def test_a_step_on_another_thread_counts_that_thread_s_time() -> None:
    steps = Steps()
    with steps.timed([(Work, "method")]):
        worker = threading.Thread(target=Work().method, args=(0,))
        worker.start()
        worker.join()
    assert steps.calls == {"Work.method": 1}
    assert 0.02 <= steps.seconds["Work.method"] < 1.0


def test_a_step_that_raises_is_timed_and_the_steps_are_put_back() -> None:
    def failing() -> None:
        _busy(0.01)
        raise ValueError("no")

    module = ModuleType("failing")
    module.step = failing  # type: ignore[attr-defined]
    steps = Steps()
    with pytest.raises(ValueError, match="no"), steps.timed([(module, "step")]):
        module.step()  # type: ignore[attr-defined]
    assert steps.calls == {"failing.step": 1}
    assert steps.seconds["failing.step"] >= 0.01
    assert module.step is failing  # type: ignore[attr-defined]


def test_the_print_gives_each_step_per_unit_costliest_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    steps = Steps()
    steps.seconds.update({"cheap": 0.001, "dear": 0.004})
    steps.calls.update({"cheap": 10, "dear": 2})
    steps.print(4, "item")
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:4] for line in lines] == [
        ["dear", "1000", "µs", "per"],
        ["cheap", "250", "µs", "per"],
    ]
    assert lines[0].endswith("item,     2 calls") and lines[1].endswith("item,    10 calls")
