"""design §2.1: a database child is judged by its CPU time: one reading a large file is waited
for while it works, a busy one is left to finish; one that never listens, or stops, is not."""

import os
import time

from castlegraph.graph.backends.child_watch import Answer, Silence, StartWait, cpu_seconds


def wait() -> StartWait:
    return StartWait(started=0.0, first_sign_seconds=300.0, stalled_seconds=120.0)


def test_a_child_that_never_listens_is_given_up_after_the_deadline() -> None:
    start = wait()
    assert start.verdict(299.0, Answer.REFUSED, 1.0) is None
    assert start.verdict(300.5, Answer.REFUSED, 2.0) == "did not answer within 300 s"


def test_a_listening_child_that_keeps_working_is_waited_for_past_the_deadline() -> None:
    start = wait()
    assert start.verdict(0.1, Answer.REFUSED, 0.0) is None
    assert start.verdict(5.0, Answer.LOADING, 1.0) is None
    for second in range(10, 3600, 10):  # an hour of loading, then rebuilding indexes silently
        answer = Answer.LOADING if second < 3000 else Answer.SILENT
        assert start.verdict(float(second), answer, float(second)) is None
    assert start.listening_since == 5.0


def test_a_connection_left_unanswered_counts_as_listening() -> None:
    start = wait()
    assert start.verdict(2.0, Answer.SILENT, 0.5) is None
    assert start.verdict(400.0, Answer.SILENT, 300.0) is None
    assert start.listening_since == 2.0


def test_a_listening_child_whose_cpu_time_stops_is_given_up_with_how_long() -> None:
    start = wait()
    assert start.verdict(10.0, Answer.LOADING, 4.0) is None
    assert start.verdict(100.0, Answer.SILENT, 50.0) is None
    assert start.verdict(220.0, Answer.SILENT, 50.0) is None  # 120 s without CPU: not yet over
    assert start.verdict(221.0, Answer.SILENT, 50.0) == (
        "stopped making progress reading its data: no CPU time used for 120 s, "
        "211 s after it began to listen"
    )


def test_without_cpu_times_the_deadline_holds_for_the_whole_start() -> None:
    start = wait()
    assert start.verdict(1.0, Answer.LOADING, None) is None
    assert start.verdict(299.0, Answer.SILENT, None) is None
    assert start.verdict(301.0, Answer.LOADING, None) == "did not become ready within 300 s"


def test_the_cpu_time_of_a_running_process_is_read_and_grows() -> None:
    before = cpu_seconds(os.getpid())
    assert before is not None and before > 0
    deadline = time.process_time() + 0.2
    while time.process_time() < deadline:  # burn a little CPU
        pass
    after = cpu_seconds(os.getpid())
    assert after is not None and after >= before + 0.1


def test_the_cpu_time_of_no_process_is_none() -> None:
    assert cpu_seconds(2**22 + 12345) is None  # above the kernel's largest pid


def test_a_silent_child_that_uses_no_cpu_is_hung_after_the_patience() -> None:
    silence = Silence(hung_seconds=15.0)
    assert silence.hung(100.0, 7.0) is False
    assert silence.hung(110.0, 7.0) is False
    assert silence.hung(115.0, 7.0) is True


def test_a_silent_child_that_uses_the_cpu_is_busy_not_hung() -> None:
    silence = Silence(hung_seconds=15.0)
    for second in range(100, 200, 5):  # a long command on a loaded machine
        assert silence.hung(float(second), second / 10) is False
    assert silence.hung(209.0, 19.5) is False  # it stopped working at 195 s
    assert silence.hung(210.0, 19.5) is True


def test_an_answer_ends_a_silence() -> None:
    silence = Silence(hung_seconds=15.0)
    assert silence.hung(100.0, 1.0) is False
    silence.answered()
    assert silence.hung(114.0, 1.0) is False
    assert silence.hung(129.0, 1.0) is True


def test_without_cpu_times_silence_alone_decides() -> None:
    silence = Silence(hung_seconds=15.0)
    assert silence.hung(100.0, None) is False
    assert silence.hung(114.0, None) is False
    assert silence.hung(115.0, None) is True
