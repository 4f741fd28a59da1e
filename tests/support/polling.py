"""Waiting with a deadline: a test polls for what it expects and fails saying what never came.

A fixed sleep is either too short on a loaded machine (a flaky failure) or too long everywhere
(a slow suite); a loop without a deadline hangs CI when the awaited thing never happens.
"""

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

POLL_SECONDS = 0.05


def eventually(check: Callable[[], T], what: str, seconds: float = 30.0) -> T:
    """The first truthy value `check` returns within `seconds`; an AssertionError naming
    `what` when none came. Exceptions from `check` propagate: they are failures, not waits."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"not within {seconds:g} s: {what}")
        time.sleep(POLL_SECONDS)
