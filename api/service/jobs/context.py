"""What an executor gets: the store, the policy, its job, and a way to checkpoint progress."""

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from graph.drawers import DedupPolicy
from graph.jobs import Job, update_job
from graph.store import GraphStore


class JobInterrupted(Exception):
    """The service is stopping: the executor saved its state and will resume on restart."""


class JobLost(Exception):
    """Another instance took the job over (this one's lease ran out): stop, change nothing."""


@dataclass
class JobContext:
    store: GraphStore
    policy: DedupPolicy
    job: Job
    stopping: threading.Event
    written: Callable[[str], None]
    """Called with each drawer the job stores (its embedding is computed in the background)."""
    lost: threading.Event = field(default_factory=threading.Event)
    """Set when this runner no longer holds the job's lease."""

    def checkpoint(self, state: dict[str, Any], done: int, total: int | None = None) -> None:
        """Record progress; raise `JobInterrupted` if the service asked to stop."""
        changes: dict[str, Any] = {"state": state, "progress_done": done}
        if total is not None:
            changes["progress_total"] = total
        if self.lost.is_set():
            raise JobLost
        self.job = update_job(self.store, self.job.id, **changes)
        if self.stopping.is_set():
            raise JobInterrupted
