"""Mining's edge cases through HTTP: bad files fail alone, and re-mining retires stale chunks."""

import os
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.api.test_jobs import mine

GOOD = "Good notes are mined."


def names_and_contents(client: TestClient) -> list[tuple[str, str]]:
    drawers = client.get("/api/wings/docs/rooms/notes/drawers").json()["drawers"]
    return sorted((d["name"], d["content"]) for d in drawers)


def assert_one_failure(job: dict[str, Any], path: str, reason: str) -> None:
    """The job succeeded, counted the bad file in `failed` under its relative path, and
    stored the good one."""
    assert job["status"] == "succeeded", job
    assert job["result"]["failed"] == [{"path": path, "reason": reason}]
    assert job["result"]["failed_count"] == 1
    assert (job["result"]["files"], job["result"]["created"]) == (1, 1)


def test_a_file_with_an_undecodable_name_fails_alone(client: TestClient, mine_dir: Path) -> None:
    (mine_dir / "good.md").write_text(GOOD)
    bad = os.path.join(os.fsencode(mine_dir), b"bad\xff.md")
    with open(bad, "wb") as file:
        file.write(b"A file whose name is not UTF-8.")
    job = mine(client, mine_dir)
    assert_one_failure(job, "bad\\xff.md", "undecodable_name")
    assert names_and_contents(client) == [("good.md#0", GOOD)]


def test_a_nul_byte_past_the_sniffed_start_fails_the_file_alone(
    client: TestClient, mine_dir: Path
) -> None:
    (mine_dir / "good.md").write_text(GOOD)
    (mine_dir / "sub").mkdir()
    (mine_dir / "sub" / "late.md").write_bytes(b"text " * 2000 + b"\0 and more text")
    job = mine(client, mine_dir)
    assert_one_failure(job, "sub/late.md", "nul_byte")
    assert names_and_contents(client) == [("good.md#0", GOOD)]


def test_a_file_over_ten_mib_fails_alone(client: TestClient, mine_dir: Path) -> None:
    (mine_dir / "good.md").write_text(GOOD)
    with (mine_dir / "huge.md").open("wb") as huge:
        huge.truncate(11 * 2**20)  # sparse: 11 MiB cost no disk
    job = mine(client, mine_dir)
    assert_one_failure(job, "huge.md", "too_large")
    assert names_and_contents(client) == [("good.md#0", GOOD)]


def test_the_list_of_failed_files_is_bounded_but_all_are_counted(
    client: TestClient, mine_dir: Path
) -> None:
    for number in range(105):
        (mine_dir / f"late{number:03}.md").write_bytes(b"x" * 9000 + b"\0")
    job = mine(client, mine_dir)
    assert job["status"] == "succeeded"
    assert job["result"]["failed_count"] == 105
    assert [f["path"] for f in job["result"]["failed"]] == [f"late{n:03}.md" for n in range(100)]
    assert str(mine_dir) not in str(job["result"])


def test_re_mining_a_shrunk_file_retires_the_chunks_past_its_new_end(
    client: TestClient, mine_dir: Path
) -> None:
    paragraphs = [f"Paragraph {i} " + "x" * 150 for i in range(4)]
    (mine_dir / "notes.md").write_text("\n\n".join(paragraphs))
    first = mine(client, mine_dir, chunk_chars=200)
    assert first["result"]["created"] == 4
    chunk_ids = {d["name"]: d["id"] for d in room(client)}
    (mine_dir / "notes.md").write_text("\n\n".join(paragraphs[:2]))  # the last two cut
    again = mine(client, mine_dir, chunk_chars=200)
    assert again["result"]["retired"] == 2
    assert (again["result"]["unchanged"], again["result"]["created"]) == (2, 0)
    assert sorted(d["name"] for d in room(client)) == ["notes.md#0", "notes.md#1"]
    for name in ("notes.md#2", "notes.md#3"):  # closed, never deleted
        kept = client.get(f"/api/drawers/{chunk_ids[name]}").json()
        assert kept["content"] == paragraphs[int(name[-1])]
        assert kept["valid_to"] is not None
    assert mine(client, mine_dir, chunk_chars=200)["result"]["retired"] == 0


def test_re_mining_retires_the_chunks_of_a_deleted_file_of_that_root_only(
    client: TestClient, mine_dir: Path, tmp_path: Path
) -> None:
    (mine_dir / "a").mkdir()
    (mine_dir / "b").mkdir()
    (mine_dir / "a" / "gone.md").write_text("A file deleted before the next mine.")
    (mine_dir / "a" / "kept.md").write_text("A file that stays.")
    (mine_dir / "b" / "other.md").write_text("Mined from another root into the same room.")
    mine(client, mine_dir / "a")
    mine(client, mine_dir / "b")
    gone_id = next(d["id"] for d in room(client) if d["name"] == "gone.md#0")
    (mine_dir / "a" / "gone.md").unlink()
    again = mine(client, mine_dir / "a")
    assert again["result"]["retired"] == 1
    assert sorted(d["name"] for d in room(client)) == ["kept.md#0", "other.md#0"]
    kept = client.get(f"/api/drawers/{gone_id}").json()
    assert (kept["content"], kept["valid_to"] is not None) == (
        "A file deleted before the next mine.",
        True,
    )
    assert len(kept["origin"]["root"]) == 16  # names the root without telling the server's path
    assert str(mine_dir) not in str(kept)
    assert mine(client, mine_dir / "a")["result"]["retired"] == 0


def room(client: TestClient) -> list[dict[str, Any]]:
    return client.get("/api/wings/docs/rooms/notes/drawers").json()["drawers"]  # type: ignore[no-any-return]


def test_mining_a_fifo_itself_finishes_and_counts_it_skipped(
    client: TestClient, mine_dir: Path
) -> None:
    os.mkfifo(mine_dir / "pipe")
    job = mine(client, mine_dir / "pipe")
    assert job["status"] == "succeeded"
    result = job["result"]
    assert (result["files"], result["skipped"], result["created"], result["failed_count"]) == (
        0,
        1,
        0,
        0,
    )


def test_a_file_with_control_characters_fails_alone_as_the_drawer_routes_refuse_it(
    client: TestClient, mine_dir: Path
) -> None:
    """Tab, line feed and carriage return are text; an ANSI escape or a form feed is refused by
    the drawer routes (`input::invalid`), so mining does not store it either."""
    (mine_dir / "good.md").write_text(GOOD)
    (mine_dir / "ansi.md").write_text("A log line in \x1b[31mred\x1b[0m.\tTabbed.\r\n")
    job = mine(client, mine_dir)
    assert_one_failure(job, "ansi.md", "control_characters")
    assert names_and_contents(client) == [("good.md#0", GOOD)]
    refused = client.post(
        "/api/wings/docs/rooms/notes/drawers", json={"content": "A log in \x1b[31mred\x1b[0m."}
    )
    assert (refused.status_code, refused.json()["error"]["code"]) == (400, "input::invalid")
