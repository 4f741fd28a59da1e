"""What the load run throws in while its clients work, and the health watch that runs throughout.

The load's clients show that ordinary traffic loses and duplicates nothing; these show that
traffic that should be refused or shrugged off is (`throw_in`), with the service healthy all
along: `HealthWatch` polls `GET /api/health` from before the first hazard until every job has
ended, so a job or a refusal that stalled the service shows as a non-200 or a slow answer.
"""

import os
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

HEALTH_EVERY_SECONDS = 0.25
CHECKPOINT_CAP = 1000 * 10
"""The service's default cap: `api.max_batch` (1,000) × 10 items."""
OVER_CAP = 100_000
JOBS_DEADLINE_SECONDS = 900.0
"""How long the hazards' jobs may take after the load ends (the 10,000-item checkpoint runs on
the service's single job thread, behind nothing but the mining jobs)."""
PAGE = 1000
GOOD = "Deploy notes: staging listens on port 8080, production on 443."

Record = Callable[[str, float, int], None]


def mining_root_environment(root: Path) -> dict[str, str]:
    """The bench's mining roots: its own directory, and `/dev` so `/dev/zero` can be asked for."""
    return {"CASTLEGRAPH_MINE_ROOTS": f"{root}:/dev"}


def prepare_tree(root: Path) -> Path:
    """A tree of one good file and every kind of bad one; returns it."""
    tree = root / "tree"
    tree.mkdir(parents=True)
    (tree / "notes.md").write_text(GOOD)
    os.mkfifo(tree / "pipe.md")
    (tree / "zero.md").symlink_to("/dev/zero")
    with (tree / "huge.md").open("wb") as huge:
        huge.truncate(11 * 2**20)  # sparse: 11 MiB that cost no disk
    (tree / "late.md").write_bytes(b"text " * 2000 + b"\0 and more")
    return tree


@dataclass
class HealthWatch:
    """Polls `/api/health` on its own thread until stopped: worst status, latencies."""

    base_url: str
    statuses: Counter[int] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._poll, name="health-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _poll(self) -> None:
        with httpx.Client(base_url=self.base_url, timeout=30) as client:
            while not self._stop.is_set():
                started = time.perf_counter()
                try:
                    status = client.get("/api/health").status_code
                except httpx.TransportError:
                    status = 0  # no answer at all: the worst
                self.latencies.append(time.perf_counter() - started)
                self.statuses[status] += 1
                self._stop.wait(HEALTH_EVERY_SECONDS)

    def summary(self) -> dict[str, Any]:
        ordered = sorted(self.latencies) or [0.0]
        return {
            "health_polls": len(self.latencies),
            "health_statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "health_not_200": sum(v for k, v in self.statuses.items() if k != 200),
            "health_p99_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
            "health_max_ms": ordered[-1] * 1000,
        }


def _post(client: httpx.Client, record: Record, path: str, body: dict[str, Any]) -> httpx.Response:
    started = time.perf_counter()
    response = client.post(path, json=body)
    record("hazard", time.perf_counter() - started, response.status_code)
    return response


def throw_in(base_url: str, tree: Path, record: Record) -> dict[str, Any]:
    """Send every hazard once; the jobs they started, by name, and the refusal's answer.

    - mining `/dev/zero` itself (the bench lists `/dev` as a mining root, the worst an operator
      could do), a FIFO as the mined path, and a tree holding a FIFO, a symlink to `/dev/zero`,
      a file over 10 MiB and one with a NUL byte past the first 8 KiB: every job must finish,
      the bad files counted, the good one stored;
    - a checkpoint of exactly the cap (`api.max_batch` × 10 items), which must be accepted and
      store every item, and one of `OVER_CAP`, which must be `413 payload::too_large`.
    """
    jobs: dict[str, str] = {}
    problems: list[str] = []
    with httpx.Client(base_url=base_url, timeout=120) as client:
        mines = {  # name -> (path, room)
            "mine /dev/zero": ("/dev/zero", "dev-zero"),
            "mine a FIFO": (str(tree / "pipe.md"), "fifo"),
            "mine the bad tree": (str(tree), "tree"),
        }
        for name, (path, room) in mines.items():
            body = {"path": path, "wing": "hazards", "room": room}
            answer = _post(client, record, "/api/mine", body)
            if answer.status_code == 202:
                jobs[name] = answer.json()["job"]["id"]
            else:
                problems.append(f"{name}: {answer.status_code} {answer.text[:200]}")
        items = [{"content": f"load checkpoint item {i}"} for i in range(CHECKPOINT_CAP)]
        body = {"wing": "hazards", "room": "checkpoint", "items": items}
        answer = _post(client, record, "/api/checkpoints", body)
        if answer.status_code == 202:
            jobs["checkpoint at the cap"] = answer.json()["job"]["id"]
        else:
            problems.append(f"checkpoint at the cap: {answer.status_code} {answer.text[:200]}")
        over = [{"content": f"over the cap {i}"} for i in range(OVER_CAP)]
        refused = _post(
            client, record, "/api/checkpoints", {"wing": "hazards", "room": "over", "items": over}
        )
        code = refused.json().get("error", {}).get("code") if refused.content else None
        if (refused.status_code, code) != (413, "payload::too_large"):
            problems.append(f"checkpoint over the cap: {refused.status_code} {code}")
    return {"jobs": jobs, "problems": problems, "over_cap": [refused.status_code, code]}


EXPECTED: dict[str, Callable[[dict[str, Any]], bool]] = {
    "mine /dev/zero": lambda r: (r["created"], r["skipped"], r["failed_count"]) == (0, 1, 0),
    "mine a FIFO": lambda r: (r["created"], r["skipped"], r["failed_count"]) == (0, 1, 0),
    "mine the bad tree": lambda r: (
        (r["created"], r["skipped"], r["failed_count"]) == (1, 2, 2)
        and sorted(f["reason"] for f in r["failed"]) == ["nul_byte", "too_large"]
    ),
    "checkpoint at the cap": lambda r: (
        (r["items"], r["stored"] + r["duplicates"], r["failed"]) == (CHECKPOINT_CAP, r["items"], [])
    ),
}


def _room_size(client: httpx.Client, wing: str, room: str) -> int:
    count, cursor = 0, None
    while True:
        params: dict[str, Any] = {"limit": PAGE, **({"cursor": cursor} if cursor else {})}
        page = client.get(f"/api/wings/{wing}/rooms/{room}/drawers", params=params).json()
        count += len(page["drawers"])
        cursor = page.get("next_cursor")
        if not cursor:
            return count


def settle(base_url: str, thrown: dict[str, Any]) -> dict[str, Any]:
    """Wait for the hazards' jobs; check each ended as it must and the checkpoint lost nothing."""
    problems: list[str] = list(thrown["problems"])
    outcomes: dict[str, Any] = {}
    deadline = time.monotonic() + JOBS_DEADLINE_SECONDS
    with httpx.Client(base_url=base_url, timeout=60) as client:
        for name, job_id in thrown["jobs"].items():
            job = client.get(f"/api/jobs/{job_id}").json()["job"]
            while job["status"] in ("queued", "running") and time.monotonic() < deadline:
                time.sleep(0.5)
                job = client.get(f"/api/jobs/{job_id}").json()["job"]
            result = job.get("result") or {}
            outcomes[name] = {"status": job["status"], **result}
            if job["status"] != "succeeded" or not EXPECTED[name](result):
                problems.append(f"{name}: {job['status']} {result} {job.get('error')}")
        lost = 0
        if "checkpoint at the cap" in outcomes:
            stored = int(outcomes["checkpoint at the cap"].get("stored", 0))
            lost = stored - _room_size(client, "hazards", "checkpoint")
            outcomes["checkpoint at the cap"]["listed"] = stored - lost
    if lost:
        problems.append(f"checkpoint at the cap: {lost} stored items not listed")
    return {
        "hazard_jobs": outcomes,
        "over_cap": thrown["over_cap"],
        "hazard_problems": problems,
        "checkpoint_lost": lost,
    }
