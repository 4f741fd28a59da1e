"""`bench.service.until_quiet`: a timed step waits until the processes it shares its cores with
have stopped working (a warming index, a database merging what it was loaded with)."""

import pytest

from bench import service


class Clock:
    """The wall clock `until_quiet` reads, moved on by its sleeps alone."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(service.time, "perf_counter", fake.perf_counter)
    monkeypatch.setattr(service.time, "sleep", fake.sleep)
    return fake


def test_it_waits_while_the_processes_work_and_says_how_long(clock: Clock) -> None:
    used = iter([0.0, 1.5, 3.0, 3.05, 9.0])  # busy for two periods, then under 5 % of a core

    assert service.until_quiet(lambda: next(used), "Neo4j") == 3 * service.QUIET_SECONDS


def test_a_process_that_never_quiets_is_an_error_naming_it(clock: Clock) -> None:
    busy = iter(float(n) for n in range(10_000))

    with pytest.raises(RuntimeError, match="Neo4j was still busy"):
        service.until_quiet(lambda: next(busy), "Neo4j")
    assert clock.now >= service.QUIET_TIMEOUT_SECONDS
