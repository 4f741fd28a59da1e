"""The `castlegraph` command line: in-process on a temporary data directory, and over HTTP.

Each in-process command starts the embedded database on the data directory and stops it, so
a test can open the directory itself between commands (the lock is released on close); on
Neo4j (`backend`) each command opens the session's database instead. Finding a running
service through the data directory's lock is the embedded database's alone.
"""

import io
import json
import re
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from typer.testing import Result

from castlegraph.api.cli import progress as cli_progress
from castlegraph.api.cli.progress import Step, follow
from castlegraph.api.http.app import VERSION
from castlegraph.graph.drawers import palace
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.entities.resolution import MentionInput, resolve_mentions
from castlegraph.graph.schema import migrations
from castlegraph.resolver.entity_model import make_mention
from tests.support.backends import Backend
from tests.support.processes import Service

Cli = Callable[..., Result]

COPY = "The deployment runbook says: restart the worker after every schema migration.\n"


def answer(result: Result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def failure(result: Result) -> str:
    """The one line an expected error prints, after checking it is no traceback."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.stdout == ""
    return result.stderr.strip()


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    """Two identical text files and a binary one."""
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.md").write_text(COPY)
    (root / "b.md").write_text(COPY)
    (root / "logo.bin").write_bytes(b"\x89PNG\x00\x01\x02binary")
    return root


def write_jsonl(path: Path, items: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(item) + "\n" for item in items))
    return path


def seed_mentions(backend: Backend, data_dir: Path, names: list[tuple[str, str]]) -> None:
    """Resolve each (name, kind) seen in its own drawer, on the data directory, then close it."""
    with backend.migrated(data_dir) as store:
        policy = DedupPolicy(enabled=True, near_threshold=0.9)
        inputs = []
        for index, (name, kind) in enumerate(names):
            new = NewDrawer(wing="w", room="r", content=f"note {index}: {name}")
            drawer = palace.write_drawer(store, new, policy).drawer
            inputs.append(MentionInput(drawer.id, make_mention(name, kind), extractor="test"))
        resolve_mentions(store, inputs, fuzzy=True, known_word=lambda word: False)


def test_version(cli: Cli) -> None:
    result = cli(None, "version")
    assert result.exit_code == 0
    assert result.stdout == f"castlegraph {VERSION}\n"


def test_mine_stores_every_chunk_links_copies_and_skips_binaries(
    docs: Path, data_dir: Path, cli: Cli, backend: Backend
) -> None:
    first = cli(data_dir, "mine", str(docs), "--wing", "w", "--json")
    job = answer(first)["job"]
    assert (job["kind"], job["status"], job["params"]["room"]) == ("mine", "succeeded", "docs")
    assert job["result"] == {
        "files": 2,
        "skipped": 1,
        "created": 2,
        "unchanged": 0,
        "superseded": 0,
        "similar": 1,
        "retired": 0,
        "failed": [],
        "failed_count": 0,
    }
    assert "mine: 3/3 files" in first.stderr  # not a terminal: plain progress lines

    again = answer(cli(data_dir, "mine", str(docs), "--wing", "w", "--json"))["job"]["result"]
    assert (again["created"], again["unchanged"], again["similar"]) == (0, 2, 0)

    human = cli(data_dir, "mine", str(docs), "--wing", "w")
    assert human.exit_code == 0, human.output
    assert "succeeded" in human.stdout
    assert "created 0, unchanged 2" in human.stdout


def test_local_mine_is_the_users_own_read_whatever_the_roots(
    docs: Path, tmp_path: Path, data_dir: Path, cli: Cli, backend: Backend
) -> None:
    elsewhere = {"CASTLEGRAPH_MINE_ROOTS": str(tmp_path / "elsewhere")}
    job = answer(cli(data_dir, "mine", str(docs), "--wing", "w", "--json", env=elsewhere))["job"]
    assert (job["status"], job["result"]["created"]) == ("succeeded", 2)


def test_mine_of_a_missing_path_is_a_clear_error(
    tmp_path: Path, data_dir: Path, cli: Cli, backend: Backend
) -> None:
    missing = tmp_path / "nowhere"
    message = failure(cli(data_dir, "mine", str(missing), "--wing", "w"))
    assert message == f"castlegraph: no such file or directory (path: {missing})"


def test_checkpoint_counts_exact_copies(
    tmp_path: Path, data_dir: Path, cli: Cli, backend: Backend
) -> None:
    same = {"content": "Decided: the cache is flushed nightly.", "agent": "claude"}
    first = write_jsonl(tmp_path / "first.jsonl", [same])
    second = write_jsonl(tmp_path / "second.jsonl", [same, {"content": "Something else."}])
    args = ("--wing", "w", "--room", "decisions", "--json")

    one = answer(cli(data_dir, "checkpoint", str(first), *args))["job"]["result"]
    two_run = cli(data_dir, "checkpoint", str(second), *args)
    two = answer(two_run)["job"]["result"]

    assert (one["items"], one["stored"], one["duplicates"]) == (1, 1, 0)
    assert (two["items"], two["stored"], two["duplicates"]) == (2, 1, 1)
    assert "checkpoint: 2/2 items" in two_run.stderr


def test_checkpoint_names_the_bad_line_and_starts_nothing(
    tmp_path: Path, data_dir: Path, cli: Cli, backend: Backend
) -> None:
    items = tmp_path / "items.jsonl"
    items.write_text('{"content": "fine"}\n\n{"content": "x", "colour": "red"}\n')
    message = failure(cli(data_dir, "checkpoint", str(items), "--wing", "w", "--room", "r"))
    assert message.startswith(f"castlegraph: {items}:3: colour:")
    assert answer(cli(data_dir, "jobs", "--json")) == {"jobs": []}


def test_migrate_status_lists_applied_versions_after_migrate(
    data_dir: Path, cli: Cli, backend: Backend
) -> None:
    versions = [m.version for m in migrations.MIGRATIONS]
    before = answer(cli(data_dir, "migrate", "--status", "--json"))
    assert (before["applied"], [m["version"] for m in before["pending"]]) == ([], versions)

    run = answer(cli(data_dir, "migrate", "--json"))
    assert [m["version"] for m in run["migrated"]] == versions

    after = answer(cli(data_dir, "migrate", "--status", "--json"))
    assert [m["version"] for m in after["applied"]] == versions
    assert after["pending"] == []
    assert "applied  1" in cli(data_dir, "migrate", "--status").stdout
    assert answer(cli(data_dir, "migrate", "--json"))["migrated"] == []


def test_migrate_status_asks_the_running_service_and_migrate_still_refuses(
    data_dir: Path, spawn: Callable[..., Service], cli: Cli
) -> None:
    """Embedded only: the service is found through the data directory's lock, which only
    the embedded database takes."""
    tokens = {"CASTLEGRAPH_API_TOKENS": "ops-secret"}
    service = spawn(data_dir, env=tokens)
    service.wait_healthy()
    elsewhere = {**tokens, "CASTLEGRAPH_PORT": "9"}  # found where it recorded it listens

    status = cli(data_dir, "migrate", "--status", "--json", env=elsewhere)
    assert f"a service is using {data_dir}; asking it at {service.url}" in status.stderr
    listed = answer(status)
    assert [m["version"] for m in listed["applied"]] == [m.version for m in migrations.MIGRATIONS]
    assert listed["pending"] == []
    table = cli(data_dir, "migrate", "--status", env=elsewhere).stdout
    assert migrations.MIGRATIONS[-1].name in table

    refused = failure(cli(data_dir, "migrate", env=elsewhere))
    assert f"(pid {service.pid}, at {service.url}); stop the service first" in refused
    service.stop(signal.SIGTERM)


def test_resolve_is_a_dry_run(data_dir: Path, cli: Cli, backend: Backend) -> None:
    seed_mentions(backend, data_dir, [("Ada Lovelace", "person")])

    unknown = answer(cli(data_dir, "resolve", "Grace Hopper", "--kind", "person", "--json"))
    assert (unknown["decision"], unknown["rule"], unknown["entity"]) == ("new", "new", None)
    known = answer(cli(data_dir, "resolve", "ADA LOVELACE", "--kind", "Person", "--json"))
    assert (known["decision"], known["rule"], known["entity"]["name"]) == (
        "same",
        "normalized",
        "Ada Lovelace",
    )
    assert "new entity (rule new" in cli(data_dir, "resolve", "Grace Hopper", "--kind", "x").stdout

    assert failure(cli(data_dir, "entity", "Grace Hopper")) == (
        "castlegraph: no entity named 'Grace Hopper'"
    )
    ada = answer(cli(data_dir, "entity", "Ada Lovelace", "--json"))["entities"]
    assert [e["entity"]["aliases"] for e in ada] == [[]]  # the dry run added no alias


def test_entity_shows_aliases_mentions_and_review_links(
    data_dir: Path, cli: Cli, backend: Backend
) -> None:
    seed_mentions(
        backend,
        data_dir,
        [
            ("Ada Lovelace", "person"),
            ("ADA LOVELACE", "person"),
            ("Python 3.11", "tool"),
            ("Python 3.12", "tool"),
        ],
    )
    [ada] = answer(cli(data_dir, "entity", "ada lovelace", "--kind", "person", "--json"))[
        "entities"
    ]
    assert (ada["entity"]["name"], ada["entity"]["aliases"]) == ("Ada Lovelace", ["ADA LOVELACE"])
    assert {(m["observation"]["name"], m["observation"]["rule"]) for m in ada["mentions"]} == {
        ("Ada Lovelace", "new"),
        ("ADA LOVELACE", "normalized"),
    }
    assert ada["candidates"] == []

    [python] = answer(cli(data_dir, "entity", "Python 3.12", "--json"))["entities"]
    assert [(c["entity"]["name"], c["side"]) for c in python["candidates"]] == [
        ("Python 3.11", "older")
    ]

    human = cli(data_dir, "entity", "Ada Lovelace").stdout
    assert "aliases  ADA LOVELACE" in human
    assert "normalized  0.98" in human
    assert "pending review links (0)" in human
    assert "Python 3.11 (tool)" in cli(data_dir, "entity", "python 3.12").stdout


def test_jobs_lists_recent_jobs_and_shows_one(
    docs: Path, tmp_path: Path, data_dir: Path, cli: Cli, backend: Backend
) -> None:
    items = write_jsonl(tmp_path / "items.jsonl", [{"content": "one item"}])
    answer(cli(data_dir, "checkpoint", str(items), "--wing", "w", "--room", "r", "--json"))
    mined = answer(cli(data_dir, "mine", str(docs), "--wing", "w", "--json"))["job"]

    listed = answer(cli(data_dir, "jobs", "--json"))["jobs"]
    assert [(j["kind"], j["status"]) for j in listed] == [
        ("mine", "succeeded"),
        ("checkpoint", "succeeded"),
    ]
    assert [j["kind"] for j in answer(cli(data_dir, "jobs", "--limit", "1", "--json"))["jobs"]] == [
        "mine"
    ]
    assert answer(cli(data_dir, "jobs", mined["id"], "--json")) == {"job": mined}
    table = cli(data_dir, "jobs").stdout.splitlines()
    assert table[0].split() == ["ID", "KIND", "STATUS", "PROGRESS", "CREATED", "RESULT"]
    assert table[1].startswith(mined["id"])
    assert (
        failure(cli(data_dir, "jobs", "no-such-job")) == "castlegraph: no job with id 'no-such-job'"
    )
    assert answer(cli(data_dir, "jobs", mined["id"], "--cancel", "--json")) == {"job": mined}
    assert failure(cli(data_dir, "jobs", "--cancel")) == "castlegraph: --cancel needs a job ID"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> Callable[[], Step]:
    monkeypatch.setattr(cli_progress, "POLL_SECONDS", 0.0)
    monkeypatch.setattr(cli_progress, "LOG_SECONDS", 0.0)
    reported = iter([Step(0, None, False), Step(1, 4, False), Step(4, 4, True)])
    return lambda: next(reported)


def test_progress_is_plain_lines_off_a_terminal(steps: Callable[[], Step]) -> None:
    stream = io.StringIO()
    assert follow("mine", "files", steps, stream) == Step(4, 4, True)
    counts = [line.split(",")[0] for line in stream.getvalue().splitlines()]
    assert counts == ["mine: 0 files", "mine: 1/4 files", "mine: 4/4 files"]


def test_progress_is_a_bar_on_a_terminal(steps: Callable[[], Step]) -> None:
    stream = Terminal()
    follow("mine", "files", steps, stream)
    assert "\x1b[" in stream.getvalue()  # drawn, not logged
    assert "4/4 files" in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())


@pytest.mark.slow
def test_over_http_with_url_and_by_falling_back_to_the_running_service(
    docs: Path, data_dir: Path, spawn: Callable[..., Service], cli: Cli
) -> None:
    """Embedded only: the service is found through the data directory's lock, which only
    the embedded database takes."""
    service = spawn(data_dir, env={"CASTLEGRAPH_MINE_ROOTS": str(docs)})
    service.wait_healthy()

    first = answer(cli(None, "mine", str(docs), "--wing", "w", "--url", service.url, "--json"))
    assert first["job"]["result"]["created"] == 2
    outside = failure(cli(None, "mine", str(docs.parent), "--wing", "w", "--url", service.url))
    assert "the path is outside api.mine_roots" in outside  # over HTTP the service's rule holds

    # Nothing listens at the configured port: the commands find the service where it recorded
    # it listens, beside the data directory's lock.
    elsewhere = {"CASTLEGRAPH_PORT": "9"}
    fallback = cli(data_dir, "mine", str(docs), "--wing", "w", "--json", env=elsewhere)
    assert f"a service is using {data_dir}; talking to it at {service.url}" in fallback.stderr
    assert answer(fallback)["job"]["result"]["unchanged"] == 2
    assert len(answer(cli(data_dir, "jobs", "--json", env=elsewhere))["jobs"]) == 2

    drawer = httpx.post(f"{service.url}/api/wings/w/rooms/r/drawers", json={"content": "Ada"})
    mention = {"drawer": drawer.json()["drawer"]["id"], "name": "Ada Lovelace", "kind": "person"}
    assert httpx.post(f"{service.url}/api/mentions", json={"mentions": [mention]}).is_success
    [ada] = answer(cli(data_dir, "entity", "ada lovelace", "--json", env=elsewhere))["entities"]
    assert ada["entity"]["name"] == "Ada Lovelace"

    refused = failure(cli(data_dir, "migrate", env=elsewhere))
    assert f"(pid {service.pid}, at {service.url}); stop the service first" in refused
    service.stop(signal.SIGTERM)
