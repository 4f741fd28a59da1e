"""The MCP tools at `/mcp` of a real `castlegraph serve`, and `castlegraph mcp` forwarding to it.

Vectors are supplied over HTTP (`PUT /api/drawers/{id}/embedding`) with known cosines, so the
text of `find_duplicates` can be checked line by line.
"""

import math
import re
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import httpx2 as httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.support.backends import Backend
from tests.support.mcp import TOOLS, assert_agent_tools, mcp_stdio_session, text
from tests.support.processes import Service

pytestmark = [pytest.mark.anyio, pytest.mark.slow]  # each test starts its own processes

SCORE_LINE = re.compile(r'^  \[score:0\.97\] "(.+)" \((\S+)\) <-> "(.+)" \((\S+)\)$', re.M)


@asynccontextmanager
async def http_session(
    service: Service, headers: dict[str, str] | None = None
) -> AsyncIterator[ClientSession]:
    async with (
        httpx.AsyncClient(headers=headers, timeout=30) as client,
        streamable_http_client(f"{service.url}/mcp", http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def vector(cosine: float) -> list[float]:
    """A 3-d unit vector whose cosine with (1, 0, 0) is `cosine`."""
    return [cosine, math.sqrt(1 - cosine * cosine), 0.0]


async def test_duplicate_review_at_slash_mcp(
    spawn: Callable[..., Service], tmp_path: Path, backend: Backend
) -> None:
    service = spawn(tmp_path / "palace")
    service.wait_healthy()
    room = {"wing": "ops", "room": "deploy"}
    near_copy = "staging listens on port 8080 since the move"
    async with http_session(service) as session:
        listed = {tool.name: tool.description for tool in (await session.list_tools()).tools}
        written = [
            (await session.call_tool("drawer_write", {**room, "content": content}))
            for content in (
                "Staging listens on 8080",
                "Staging listens on 8080",
                near_copy,
                "The cafeteria opens at nine",
            )
        ]
        answers = [w.structured_content or {} for w in written]
        a, copy, b, other = (answer["id"] for answer in answers)
        for drawer, cosine in ((a, 1.0), (b, 0.97), (other, 0.0)):
            put = httpx.put(  # the first creates the vector index: on Neo4j, awaited online
                f"{service.url}/api/drawers/{drawer}/embedding",
                json={"vector": vector(cosine)},
                timeout=60,
            )
            assert put.status_code == 200, put.text
        found = text(await session.call_tool("find_duplicates", room))
        verdict = {"a": a, "b": b, "status": "duplicate"}
        marked = await session.call_tool("dedup_mark_checked", verdict)
        after = text(await session.call_tool("find_duplicates", {}))
        hygiene = text(await session.call_tool("hygiene", {}))
        unknown = await session.call_tool("add_alias", {"entity_id": "nope", "alias": "Ada"})
    assert set(listed) == TOOLS and all(listed.values())
    assert [answer["created"] for answer in answers] == [True, False, True, True]
    assert copy == a
    assert "Cluster of 2:" in found
    first, second = sorted([(a, "Staging listens on 8080"), (b, near_copy)])
    assert [m.groups() for m in SCORE_LINE.finditer(found)] == [
        (first[1], first[0], second[1], second[0])
    ]
    assert marked.structured_content == {"a": min(a, b), "b": max(a, b), "status": "duplicate"}
    assert after == "No duplicate candidates at threshold 0.85."
    assert hygiene.startswith("Nothing waits for review")
    assert unknown.is_error and "graph::entity_not_found" in text(unknown)
    service.stop(signal.SIGTERM)


async def test_an_agents_drawer_and_mention_tools_at_slash_mcp(
    spawn: Callable[..., Service], tmp_path: Path, backend: Backend
) -> None:
    service = spawn(tmp_path / "palace")
    service.wait_healthy()
    async with http_session(service) as session:
        await assert_agent_tools(session)
    service.stop(signal.SIGTERM)


async def test_stdio_forwards_to_the_service_holding_the_data_dir(
    spawn: Callable[..., Service], tmp_path: Path
) -> None:
    """Embedded only: on Neo4j nothing locks the data directory, and `mcp` opens the database
    in-process instead of forwarding."""
    data_dir = tmp_path / "palace"
    service = spawn(data_dir)
    service.wait_healthy()
    log = tmp_path / "mcp.log"
    port = {"CASTLEGRAPH_PORT": str(service.port)}
    async with mcp_stdio_session(data_dir, log, env=port) as session:
        note = {"wing": "ops", "room": "deploy", "content": "Staging listens on 8080"}
        written = await session.call_tool("drawer_write", note)
        await assert_agent_tools(session)  # each tool through the HTTP client
    assert written.structured_content is not None, text(written)
    drawer = written.structured_content["id"]
    assert httpx.get(f"{service.url}/api/drawers/{drawer}").json()["content"] == note["content"]
    assert f"talking to it at http://127.0.0.1:{service.port}" in log.read_text()
    service.stop(signal.SIGTERM)


async def test_slash_mcp_takes_the_callers_token(
    spawn: Callable[..., Service], tmp_path: Path, backend: Backend
) -> None:
    service = spawn(tmp_path / "palace", env={"CASTLEGRAPH_API_TOKENS": "scout:s3cret"})
    service.wait_healthy()
    refused = httpx.post(f"{service.url}/mcp", json={})
    async with http_session(service, {"Authorization": "Bearer s3cret"}) as session:
        own = await session.call_tool("diary_write", {"agent": "scout", "content": "Mine."})
        other = await session.call_tool("diary_write", {"agent": "mole", "content": "Not mine."})
    assert (refused.status_code, refused.json()["error"]["code"]) == (401, "auth::unauthorized")
    assert not own.is_error, text(own)
    assert other.is_error and "auth::forbidden" in text(other)
    service.stop(signal.SIGTERM)
