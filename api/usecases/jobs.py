"""Jobs: checkpoints and mining run in the background; jobs report their progress.

An agent's token sees, cancels and lists only the jobs it queued (another's is
`palace::job_not_found`, as an unknown id), and cannot mine (design §8.1).
"""

from pathlib import Path
from typing import Any

from castlegraph.api.errors import Forbidden, PayloadTooLarge
from castlegraph.api.models.jobs import CheckpointCreate, JobEnvelopeOut, JobListOut, MineCreate
from castlegraph.api.service.agents import named_agent
from castlegraph.api.service.limits import check_content, check_path_segment
from castlegraph.api.service.mine_paths import allowed_path, server_path
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.usecases.answers import Changed
from castlegraph.graph import jobs

CHECKPOINT_BATCHES = 10
"""A checkpoint may hold this many batches' worth of items (`api.max_batch` each)."""


class Jobs:
    def __init__(self, runtime: Runtime) -> None:
        """The runtime stores the jobs and runs them; the bounds are the settings'."""
        self._runtime = runtime
        api = runtime.settings.api
        self._max_checkpoint_items = api.max_batch * CHECKPOINT_BATCHES
        self._max_queued = api.max_queued_jobs
        self._mine_roots = api.mine_roots

    def _queued(
        self, kind: str, params: dict[str, Any], total: int | None, caller: str | None
    ) -> JobEnvelopeOut:
        """Record the job as the caller's, within its bound (`api.max_queued_jobs`), and
        start it."""
        runtime = self._runtime
        job = jobs.create_job(
            runtime.store, kind, params, total, agent=caller, max_queued=self._max_queued
        )
        runtime.submit(job)
        return JobEnvelopeOut.of(job)

    def checkpoint(self, body: CheckpointCreate, caller: str | None) -> JobEnvelopeOut:
        """Store items in a room in the background; exact copies are counted, not stored.

        The job writes as the caller's agent (param `viewer`, design §8.1): its items are
        compared only with drawers that agent may see, so its counts say nothing of another
        agent's diary, and an item may name no agent but that one.

        At most `api.max_batch` x 10 items (design §11): the job's parameters are one node
        property that a runner reads whole, so their size is bounded like any batch.
        """
        limit = self._max_checkpoint_items
        if len(body.items) > limit:
            raise PayloadTooLarge(
                f"a checkpoint holds at most {limit} items",
                {"items": len(body.items), "max": limit},
            )
        check_path_segment("wing", body.wing)
        check_path_segment("room", body.room)
        for item in body.items:
            check_content(item.content)
            named_agent(item.agent, caller)
            if item.destination is not None:
                for kind, value in (
                    ("wing", item.destination.wing),
                    ("room", item.destination.room),
                ):
                    if value is not None:
                        check_path_segment(kind, value)
        params = body.model_dump(exclude_none=True)
        if caller is not None:
            params["viewer"] = caller
        return self._queued("checkpoint", params, len(body.items), caller)

    def mine(self, body: MineCreate, caller: str | None) -> JobEnvelopeOut:
        """Mine a file or directory on the server, inside `api.mine_roots` only (design
        §8.1): every text chunk becomes a drawer. Agent tokens cannot mine."""
        if caller is not None:
            raise Forbidden("an agent token cannot start mining", {"agent": caller})
        return self._mine(body, allowed_path(body.path, self._mine_roots))

    def mine_as_local_user(self, body: MineCreate) -> JobEnvelopeOut:
        """Mining roots bound what the service reads for others, not what the user running
        this process reads with `castlegraph mine` (design §8.1): any path they can read."""
        return self._mine(body, server_path(body.path))

    def _mine(self, body: MineCreate, root: Path) -> JobEnvelopeOut:
        """Queue the mining of `root`, a path already checked."""
        params: dict[str, str | int] = {
            "path": str(root),
            "wing": check_path_segment("wing", body.wing),
            "room": check_path_segment("room", body.room or root.name or "root"),
        }
        if body.chunk_chars is not None:
            params["chunk_chars"] = body.chunk_chars
        return self._queued("mine", params, None, None)  # agents cannot mine: an operator's

    def get(self, job_id: str, caller: str | None) -> JobEnvelopeOut:
        return JobEnvelopeOut.of(jobs.get_job(self._runtime.store, job_id, viewer=caller))

    def cancel(self, job_id: str, caller: str | None) -> Changed:
        """Cancel a queued or running job (changed: now `cancelled`); its runner stops before
        its next item and what it stored stays. Cancelling a finished job (cancelled included)
        changes nothing, so a retried cancel is harmless."""
        job, cancelled = jobs.cancel_job(self._runtime.store, job_id, viewer=caller)
        return Changed(JobEnvelopeOut.of(job).model_dump(mode="json"), cancelled)

    def recent(self, limit: int, caller: str | None) -> JobListOut:
        """The most recent jobs first."""
        return JobListOut.of(jobs.recent_jobs(self._runtime.store, limit, viewer=caller))
