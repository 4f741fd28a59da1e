"""What an executor gets: the store, the policy, its job, and a way to checkpoint progress."""

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from castlegraph.api.service.jobs.ahead import AheadPreparer
from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.drawers.drawer_request import DedupPolicy
from castlegraph.graph.indexes.drawer_index import DrawerIndex
from castlegraph.graph.jobs import Job, ProgressSave, Saved, save_job_progress


class JobInterrupted(Exception):
    """The service is stopping: the executor saved its state and will resume on restart."""


class JobLost(Exception):
    """Another instance took the job over (this one's lease ran out): stop, change nothing."""


class JobCancelled(Exception):
    """Someone cancelled the job (on any instance): stop; what was stored stays."""


@dataclass
class JobContext:
    store: GraphStore
    policy: DedupPolicy
    job: Job
    """The job as claimed: its parameters are read once, never again while it runs."""
    stopping: threading.Event
    written: Callable[[str], None]
    """Called with each drawer the job stores (its embedding is computed in the background)."""
    lost: threading.Event = field(default_factory=threading.Event)
    """Set when this runner no longer holds the job's lease."""
    drawer_index: DrawerIndex | None = None
    """The service's in-memory drawer candidate index (`graph.indexes.drawer_index`), if any."""
    preparer: AheadPreparer | None = None
    """Prepares the job's texts ahead in a worker process (`api.service.jobs.ahead`), if any."""

    def checkpoint(self, state: dict[str, Any], done: int, **changes: Any) -> None:
        """Record progress — `state` (keep it small: it is written at every item), `done`, and
        any other field given — then stop if the job was cancelled, taken over, or the service
        is stopping. The save answers with the job's status, so a cancel made through another
        instance is seen here."""
        saved = save_job_progress(
            self.store,
            self.job.id,
            self.job.owner or "",
            self.job.claim,
            state=state,
            progress_done=done,
            **changes,
        )
        self.saved(saved)

    def progress(self, state: dict[str, Any], done: int, **changes: Any) -> ProgressSave:
        """The save `checkpoint` makes, for a batch's own statement to make it
        (`graph.drawers.drawer_batch.write_drawers_saving`); `saved` then reads its answer."""
        return ProgressSave.of(
            self.job.id,
            self.job.owner or "",
            self.job.claim,
            state=state,
            progress_done=done,
            **changes,
        )

    def saved(self, saved: Saved) -> None:
        """After a progress save: stop if the job was cancelled, taken over, or the service is
        stopping."""
        if saved.status == "cancelled":
            raise JobCancelled
        if not saved.held or self.lost.is_set():
            raise JobLost
        if self.stopping.is_set():
            raise JobInterrupted
