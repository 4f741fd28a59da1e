"""The one interface through which the CLI and the MCP tools reach castlegraph.

Every answer is the JSON the HTTP API returns, so a command or a tool is written once and works
the same in-process (`api.client.local`) and over HTTP (`api.client.http`).
"""

from typing import Any, Protocol

Json = dict[str, Any]


class Client(Protocol):
    remote: bool
    """True when the work happens in a service that keeps running after the command exits."""

    def mine(self, body: Json) -> Json:
        """`POST /api/mine` → `{"job": ...}`."""
        ...

    def checkpoint(self, body: Json) -> Json:
        """`POST /api/checkpoints` → `{"job": ...}`."""
        ...

    def job(self, job_id: str) -> Json:
        """`GET /api/jobs/{id}` → `{"job": ...}`."""
        ...

    def jobs(self, limit: int) -> Json:
        """`GET /api/jobs?limit=` → `{"jobs": [...]}`."""
        ...

    def resolve(self, name: str, kind: str) -> Json:
        """`POST /api/resolve`: the dry run."""
        ...

    def find_entities(self, name: str, kind: str | None, cursor: str | None) -> Json:
        """`GET /api/entities?name=&kind=&cursor=` → `{"entities": [...], "next_cursor"}`."""
        ...

    def entity_mentions(self, entity_id: str) -> list[Json]:
        """`GET /api/entities/{id}/mentions`."""
        ...

    def entity_candidates(self, entity_id: str) -> list[Json]:
        """`GET /api/entities/{id}/candidates`: the pending review links."""
        ...
