"""`castlegraph mine`, `checkpoint` and `jobs`: start background jobs, follow them, read them.

`mine` and `checkpoint` post the job as the HTTP routes do, then poll it every 0.2 s until it
succeeds or fails, showing its progress. Interrupted with Ctrl-C, a job is not lost: a service
keeps running it, and an in-process one checkpoints and resumes at the next start.
"""

import json
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from castlegraph.api.cli.options import (
    CommonOptions,
    fail,
    reported_errors,
    with_common_options,
)
from castlegraph.api.cli.output import emit, job_detail, job_list, job_outcome
from castlegraph.api.cli.progress import Step, follow
from castlegraph.api.client.protocol import Client, Json
from castlegraph.api.errors import CliInputError
from castlegraph.api.models.jobs import CheckpointItemIn

FINISHED = ("succeeded", "failed", "cancelled")
EXIT_INTERRUPTED = 130

Wing = Annotated[str, typer.Option(help="The wing the drawers go to.")]


def wait_for_job(client: Client, accepted: Json, unit: str) -> Json:
    """Follow a job until it has finished; its last `{"job": ...}` answer."""
    job_id: str = accepted["job"]["id"]
    latest = accepted

    def poll() -> Step:
        nonlocal latest
        latest = client.job(job_id)
        job = latest["job"]
        return Step(job["progress"]["done"], job["progress"]["total"], job["status"] in FINISHED)

    try:
        follow(accepted["job"]["kind"], unit, poll)
    except KeyboardInterrupt:
        where = "keeps running in the service" if client.remote else "resumes at the next start"
        fail(f"interrupted: job {job_id} {where} (castlegraph jobs {job_id})", EXIT_INTERRUPTED)
    return latest


def report_job(envelope: Json, as_json: bool) -> None:
    emit(envelope, as_json, job_outcome)
    job = envelope["job"]
    if job["status"] == "failed":
        fail(f"job {job['id']} failed: {(job.get('error') or {}).get('message', 'unknown error')}")
    if job["status"] == "cancelled":
        fail(f"job {job['id']} was cancelled; what it stored stays")


@with_common_options()
def mine(  # typer calls commands with keywords
    *,
    path: Annotated[
        Path,
        typer.Argument(
            metavar="PATH",
            help="A file or directory, read by the service (with --url: on its host).",
        ),
    ],
    wing: Wing,
    room: Annotated[str | None, typer.Option(help="Default: the directory's name.")] = None,
    chunk_chars: Annotated[
        int | None, typer.Option(min=100, max=100_000, help="Characters per chunk.")
    ] = None,
    options: CommonOptions,
) -> None:
    """Mine a file or directory: every text chunk becomes a drawer, linked to its copies."""
    settings = options.settings()
    body = {
        "path": str(path.expanduser().resolve()),
        "wing": wing,
        "room": room,
        "chunk_chars": chunk_chars,
    }
    with options.client(settings) as client:
        accepted = client.mine({k: v for k, v in body.items() if v is not None})
        finished = wait_for_job(client, accepted, "files")
    report_job(finished, options.as_json)


def read_items(path: Path) -> list[Json]:
    """Checkpoint items from JSONL, each checked as the route checks it, naming its line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise CliInputError(f"cannot read {path}: {error}") from error
    items: list[Json] = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            value = json.loads(text)
            if not isinstance(value, dict):
                raise CliInputError(f"{path}:{number}: expected a JSON object")
            item = CheckpointItemIn.model_validate(value)
        except json.JSONDecodeError as error:
            raise CliInputError(f"{path}:{number}: not JSON ({error.msg})") from error
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise CliInputError(f"{path}:{number}: {where}: {first['msg']}") from error
        items.append(item.model_dump(exclude_none=True))
    return items


@with_common_options()
def checkpoint(  # typer calls commands with keywords
    *,
    file: Annotated[
        Path,
        typer.Argument(
            exists=True,
            dir_okay=False,
            metavar="FILE.jsonl",
            help='JSONL, one item a line: {"content", "name"?, "agent"?, "destination"?}.',
        ),
    ],
    wing: Wing,
    room: Annotated[str, typer.Option(help="The room the drawers go to.")],
    options: CommonOptions,
) -> None:
    """Store checkpoint items in a room; exact copies are counted, not stored."""
    settings = options.settings()
    with reported_errors():
        body = {"wing": wing, "room": room, "items": read_items(file)}
    with options.client(settings) as client:
        finished = wait_for_job(client, client.checkpoint(body), "items")
    report_job(finished, options.as_json)


@with_common_options()
def jobs(  # typer calls commands with keywords
    *,
    job_id: Annotated[str | None, typer.Argument(metavar="ID", help="Show this job only.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=500, help="How many recent jobs.")] = 20,
    cancel: Annotated[
        bool,
        typer.Option(
            "--cancel", help="Cancel job ID: it stops at its next item; what it stored stays."
        ),
    ] = False,
    options: CommonOptions,
) -> None:
    """List the most recent jobs, newest first, or show one job (or cancel it)."""
    if cancel and not job_id:
        fail("--cancel needs a job ID")
    with options.client(options.settings()) as client:
        if job_id:
            answer = client.cancel_job(job_id) if cancel else client.job(job_id)
        else:
            answer = client.jobs(limit)
    emit(answer, options.as_json, job_detail if job_id else job_list)
