"""The MCP tools over stdio: a real `castlegraph mcp` process driven by the SDK's client.

The palace is prepared beforehand through the HTTP app in-process (TestClient), which stops
its database on exit, so the `mcp` process can then open the same data directory itself (or,
on Neo4j, the same database).
Over streamable HTTP against a real service: `tests/e2e/test_mcp_http.py`.
"""

import json
import math
import re
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from mcp import ClientSession
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult

from bench.service import database_children
from castlegraph.api.errors import ServiceUnreachable
from castlegraph.api.mcp.errors import tool_errors
from castlegraph.api.mcp.guide import GUIDE_URI
from castlegraph.graph.errors import DrawerNotFound, GraphQueryError, GraphUnavailable
from tests.support.app import app_settings, running_app
from tests.support.backends import Backend
from tests.support.mcp import TOOLS, assert_agent_tools, mcp_stdio_session, text
from tests.support.processes import Service, server_processes, wait_dead

pytestmark = [pytest.mark.anyio, pytest.mark.slow]  # stdio tests start their own processes

JUDGING = {
    "drawer_similar_links",
    "find_duplicates",
    "dedup_mark_checked",
    "entity_candidates",
    "review_links",
    "settle_review_link",
}
PAIR_LINE = re.compile(r'^  \[score:(\d\.\d\d)\] "(.+)" \((\S+)\) <-> "(.+)" \((\S+)\)$')


def answer(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text(result)
    assert result.structured_content is not None
    assert json.loads(text(result)) == result.structured_content  # the same JSON, as text too
    return result.structured_content


def failure(result: CallToolResult) -> str:
    assert result.is_error
    return text(result)


@asynccontextmanager
async def stdio_session(
    data_dir: Path, log: Path, backend: Backend
) -> AsyncIterator[ClientSession]:
    """A session with `castlegraph mcp` on `backend`; afterwards, no process of it is left."""
    async with mcp_stdio_session(data_dir, log, env=backend.env) as session:
        processes = server_processes(data_dir)
        assert processes, log.read_text()
        databases = 0 if backend.neo4j else 1  # its FalkorDB
        assert len(database_children(processes[0])) == databases, log.read_text()
        yield session
    # Its children die with it: the database stopped, a word-list builder killed by the kernel.
    assert all(wait_dead(pid, seconds=5.0) for pid in processes), log.read_text()
    assert "graph closed" in log.read_text()  # stopped on stdin EOF, not killed


@pytest.fixture
def palace(tmp_path: Path, backend: Backend) -> dict[str, str]:
    """Two drawers alike in meaning (cosine 0.97), one apart, and two entities under review."""
    data_dir = tmp_path / "palace"
    with running_app(app_settings(data_dir, graph=backend.graph_settings())) as client:
        ids = {}
        for name, content, angle in [
            ("a", "Staging listens on 8080", 0.0),
            ("b", "staging listens on port 8080 since the move", math.degrees(math.acos(0.97))),
            ("c", "The cafeteria opens at nine", 90.0),
        ]:
            written = client.post("/api/wings/ops/rooms/deploy/drawers", json={"content": content})
            ids[name] = written.json()["drawer"]["id"]
            vector = [math.cos(math.radians(angle)), math.sin(math.radians(angle)), 0.0]
            put = client.put(f"/api/drawers/{ids[name]}/embedding", json={"vector": vector})
            assert put.status_code == 200, put.text
        mentions = [{"drawer": ids["a"], "name": n, "kind": "person"} for n in ("Maria", "Mario")]
        results = client.post("/api/mentions", json={"mentions": mentions}).json()["results"]
        ids["maria"], ids["mario"] = (r["entity"]["id"] for r in results)
        assert results[1]["possibly_same_as"] == [ids["maria"]]
    ids["data_dir"] = str(data_dir)
    return ids


async def test_tools_are_listed_with_descriptions(tmp_path: Path, backend: Backend) -> None:
    async with stdio_session(tmp_path / "empty", tmp_path / "mcp.log", backend) as session:
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(listed) == TOOLS
    assert all(tool.description and tool.input_schema for tool in listed.values())
    assert all(GUIDE_URI in (listed[name].description or "") for name in JUDGING)
    schema = listed["dedup_mark_checked"].input_schema
    assert schema["properties"]["status"]["enum"] == [
        "duplicate",
        "supplement",
        "contradiction",
        "unrelated",
    ]
    assert schema["properties"]["a"]["description"]
    assert "ctx" not in listed["drawer_write"].input_schema["properties"]
    assert all(tool.input_schema["additionalProperties"] is False for tool in listed.values())
    destructive = {name for name, tool in listed.items() if tool.annotations.destructive_hint}
    assert destructive == {"drawer_delete"}
    assert {"find_duplicates", "drawer_list"} <= {
        name for name, tool in listed.items() if tool.annotations.read_only_hint
    }


async def test_an_agents_drawer_and_mention_tools_over_stdio(
    tmp_path: Path, backend: Backend
) -> None:
    async with stdio_session(tmp_path / "empty", tmp_path / "mcp.log", backend) as session:
        await assert_agent_tools(session)


async def test_writes_and_errors_on_an_empty_palace(tmp_path: Path, backend: Backend) -> None:
    async with stdio_session(tmp_path / "empty", tmp_path / "mcp.log", backend) as session:
        note = {"wing": "ops", "room": "deploy", "content": "Staging listens on 8080"}
        first = answer(await session.call_tool("drawer_write", note))
        again = answer(await session.call_tool("drawer_write", note))
        entry = {"agent": "scout", "content": "Checked the staging port."}
        diary = answer(await session.call_tool("diary_write", entry))
        diary_again = answer(await session.call_tool("diary_write", entry))
        nothing = text(await session.call_tool("find_duplicates", {}))
        hygiene = text(await session.call_tool("hygiene", {}))
        links = answer(await session.call_tool("drawer_similar_links", {"drawer_id": first["id"]}))
        unknown_entity = failure(
            await session.call_tool("add_alias", {"entity_id": "nope", "alias": "Ada"})
        )
        unknown_drawer = failure(
            await session.call_tool("drawer_similar_links", {"drawer_id": "x"})
        )
        blank = failure(await session.call_tool("drawer_write", {**note, "content": "  "}))
        bad_status = failure(
            await session.call_tool("dedup_mark_checked", {"a": "x", "b": "y", "status": "same"})
        )
    assert (first["created"], again["created"]) == (True, False)
    assert again == {"id": first["id"], "created": False, "similar": []}  # no hashes
    assert (diary["created"], diary_again["created"]) == (True, False)
    assert diary_again["id"] == diary["id"] != first["id"]
    assert nothing == "No duplicate candidates at threshold 0.85."
    assert "2 drawers without an embedding" in hygiene
    assert links == {"drawer": first["id"], "similar": []}
    assert "graph::entity_not_found" in unknown_entity
    assert "palace::drawer_not_found" in unknown_drawer
    assert "input::invalid: content is empty" in blank
    assert "input::invalid: status: Input should be" in bad_status


async def test_forwards_to_the_service_that_holds_the_data_directory_where_it_listens(
    tmp_path: Path, spawn: Callable[..., Service]
) -> None:
    """The settings name a port where nothing listens; the service recorded its own beside
    the data directory's lock, and every tool reaches it there. Embedded only: on Neo4j
    nothing locks the data directory, and every process opens the database itself."""
    data_dir = tmp_path / "data"
    service = spawn(data_dir)
    service.wait_healthy()
    log = tmp_path / "mcp.log"
    async with mcp_stdio_session(data_dir, log, env={"CASTLEGRAPH_PORT": "9"}) as session:
        listed = {tool.name for tool in (await session.list_tools()).tools}
        note = {"wing": "ops", "room": "deploy", "content": "Staging listens on 8080"}
        written = answer(await session.call_tool("drawer_write", note))
    assert listed == TOOLS
    assert f"a service is using {data_dir}; talking to it at {service.url}" in log.read_text()
    stored = httpx.get(f"{service.url}/api/drawers/{written['id']}")
    assert stored.json()["content"] == note["content"]
    service.stop(signal.SIGTERM)


async def test_duplicate_review_over_stdio(
    palace: dict[str, str], tmp_path: Path, backend: Backend
) -> None:
    a, b = sorted((palace["a"], palace["b"]))
    async with stdio_session(Path(palace["data_dir"]), tmp_path / "mcp.log", backend) as session:
        found = text(await session.call_tool("find_duplicates", {}))
        hygiene_before = text(await session.call_tool("hygiene", {}))
        verdict = {"a": palace["b"], "b": palace["a"], "status": "supplement"}
        marked = answer(await session.call_tool("dedup_mark_checked", verdict))
        after = text(await session.call_tool("find_duplicates", {"wing": "ops", "room": "deploy"}))
        hygiene_after = text(await session.call_tool("hygiene", {}))
    assert "Cluster of 2:" in found
    [line] = [line for line in found.splitlines() if line.startswith("  [score:")]
    match = PAIR_LINE.match(line)
    assert match is not None, line
    assert match.group(1) == "0.97"
    assert {(match.group(2), match.group(3)), (match.group(4), match.group(5))} == {
        ("Staging listens on 8080", palace["a"]),
        ("staging listens on port 8080 since the move", palace["b"]),
    }
    assert "1 duplicate pair at threshold 0.85" in hygiene_before
    assert marked == {"a": a, "b": b, "status": "supplement"}  # canonical order
    assert after == "No duplicate candidates at threshold 0.85 in wing 'ops', room 'deploy'."
    assert "0 duplicate pairs" in hygiene_after


async def test_entity_review_over_stdio(
    palace: dict[str, str], tmp_path: Path, backend: Backend
) -> None:
    async with stdio_session(Path(palace["data_dir"]), tmp_path / "mcp.log", backend) as session:
        dry = answer(await session.call_tool("resolve_entity", {"name": "MARIA", "kind": "person"}))
        new = answer(await session.call_tool("resolve_entity", {"name": "Zed", "kind": "tool"}))
        candidates = answer(
            await session.call_tool("entity_candidates", {"entity_id": palace["mario"]})
        )
        alias = answer(
            await session.call_tool(
                "add_alias", {"entity_id": palace["maria"], "alias": "Maria L."}
            )
        )
        converged = answer(
            await session.call_tool("resolve_entity", {"name": "maria l", "kind": "person"})
        )
        unchanged = answer(
            await session.call_tool("resolve_entity", {"name": "Zed", "kind": "tool"})
        )
        blank = failure(await session.call_tool("resolve_entity", {"name": " ", "kind": "tool"}))
        blank_alias = failure(
            await session.call_tool("add_alias", {"entity_id": palace["maria"], "alias": " "})
        )
    assert (dry["decision"], dry["rule"], dry["entity"]["id"]) == (
        "same",
        "normalized",
        palace["maria"],
    )
    assert (new["decision"], new["entity"]) == ("new", None)
    assert unchanged == new  # a dry run wrote nothing
    assert candidates["entity"] == palace["mario"]
    assert [(c["entity"]["id"], c["side"]) for c in candidates["candidates"]] == [
        (palace["maria"], "older")
    ]
    assert alias["aliases"] == ["Maria L."]
    assert (converged["rule"], converged["entity"]["id"]) == ("alias", palace["maria"])
    assert "domain::empty_label" in blank
    assert "domain::empty_label: alias must not be blank" in blank_alias


async def test_review_links_are_listed_settled_and_undone_over_stdio(
    palace: dict[str, str], tmp_path: Path, backend: Backend
) -> None:
    maria, mario = palace["maria"], palace["mario"]
    async with stdio_session(Path(palace["data_dir"]), tmp_path / "mcp.log", backend) as session:
        pending = answer(await session.call_tool("review_links", {}))
        taken = failure(
            await session.call_tool("add_alias", {"entity_id": maria, "alias": "Mario"})
        )
        same = answer(
            await session.call_tool(
                "settle_review_link", {"entity_id": mario, "other_id": maria, "verdict": "same"}
            )
        )
        settled = answer(await session.call_tool("review_links", {"status": "same"}))
        hygiene = text(await session.call_tool("hygiene", {}))
        undone = answer(
            await session.call_tool(
                "settle_review_link",
                {"entity_id": maria, "other_id": mario, "verdict": "different"},
            )
        )
        bad = failure(
            await session.call_tool(
                "settle_review_link", {"entity_id": maria, "other_id": mario, "verdict": "maybe"}
            )
        )
    assert [(link["a"]["id"], link["b"]["id"]) for link in pending["links"]] == [(maria, mario)]
    assert pending["next_cursor"] is None
    assert "graph::alias_taken: 'Mario' is a spelling of another entity" in taken
    assert (same["id"], same["aliases"], "undone" in same) == (maria, ["Mario"], False)
    assert [link["status"] for link in settled["links"]] == ["same"]
    assert "- 0 pending possibly_same_as links between entities" in hygiene, hygiene
    assert (undone["aliases"], undone["undone"]) == ([], "same")
    assert "input::invalid" in bad


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (GraphUnavailable("the graph database is not ready yet"), "graph::unavailable: the graph"),
        (DrawerNotFound("d1"), "palace::drawer_not_found: "),
        (ServiceUnreachable("cannot reach the service"), "cli::service_unreachable: cannot"),
        (GraphQueryError("MATCH (n) ... syntax error"), "internal::error: the service failed"),
    ],
)
def test_errors_keep_their_code_and_bugs_their_details(error: Exception, text: str) -> None:
    with pytest.raises(ToolError) as raised, tool_errors():
        raise error
    assert str(raised.value).startswith(text)
    assert "MATCH" not in str(raised.value)
