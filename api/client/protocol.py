"""The one interface through which the CLI and the MCP tools reach castlegraph.

Each method is one HTTP call: its arguments are the call's path segments, query and JSON body,
and its answer is the JSON the HTTP API returns. So a command or a tool is written once and
works the same in-process (`api.client.local`) and over HTTP (`api.client.http`).
"""

from typing import Any, Protocol

Json = dict[str, Any]


class Client(Protocol):
    """`caller` is the agent the caller's bearer token names (None: the token names none, or
    there is no token). It decides whose diary entries a call may see, so the calls that depend
    on it take it explicitly: the MCP endpoint of the service passes the agent of each request's
    token. Over HTTP the client's own token is sent instead and the service reads the agent from
    it, so there the argument changes nothing."""

    remote: bool
    """True when the work happens in a service that keeps running after the command exits."""

    # --- jobs ---------------------------------------------------------------------------------

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

    def cancel_job(self, job_id: str) -> Json:
        """`POST /api/jobs/{id}/cancel` → `{"job": ...}` (unchanged when it had finished)."""
        ...

    # --- drawers and their duplicates ---------------------------------------------------------

    def write_drawer(self, wing: str, room: str, body: Json, *, caller: str | None) -> Json:
        """`POST /api/wings/{wing}/rooms/{room}/drawers`: a caller whose token names an agent
        writes diary drawers as that agent only."""
        ...

    def write_diary(self, body: Json, *, caller: str | None) -> Json:
        """`POST /api/diary`: a caller whose token names an agent writes as that agent only."""
        ...

    def drawer(self, drawer_id: str, *, caller: str | None) -> Json:
        """`GET /api/drawers/{id}`."""
        ...

    def room_drawers(
        self, wing: str, room: str, limit: int, cursor: str | None, *, caller: str | None
    ) -> Json:
        """`GET /api/wings/{wing}/rooms/{room}/drawers?limit=&cursor=` →
        `{"drawers": [...], "next_cursor"}`."""
        ...

    def search_drawers(
        self, wing: str, room: str, text: str, limit: int, *, caller: str | None
    ) -> Json:
        """`GET /api/wings/{wing}/rooms/{room}/search?q=&limit=` → `{"drawers", "more"}`."""
        ...

    def supersede_drawer(self, drawer_id: str, body: Json, *, caller: str | None) -> Json:
        """`PUT /api/drawers/{id}` `{"content"}`: the new version, `superseded` naming the old."""
        ...

    def delete_drawer(self, drawer_id: str, *, caller: str | None) -> None:
        """`DELETE /api/drawers/{id}` (204)."""
        ...

    def drawer_duplicates(self, drawer_id: str, *, caller: str | None) -> Json:
        """`GET /api/drawers/{id}/duplicates`: the SIMILAR_TO links."""
        ...

    def find_duplicates(
        self, wing: str | None, room: str | None, threshold: float, *, caller: str | None
    ) -> Json:
        """`GET /api/duplicates?wing=&room=&threshold=`: clusters of drawers alike in meaning."""
        ...

    def mark_checked(self, body: Json, *, caller: str | None) -> Json:
        """`POST /api/duplicates/verdicts`."""
        ...

    def hygiene(self, *, caller: str | None) -> Json:
        """`GET /api/hygiene`."""
        ...

    # --- entities -----------------------------------------------------------------------------

    def resolve(self, name: str, kind: str) -> Json:
        """`POST /api/resolve`: the dry run."""
        ...

    def post_mentions(self, body: Json, *, caller: str | None) -> Json:
        """`POST /api/mentions` `{"mentions": [...]}` → `{"results": [...]}`, in order."""
        ...

    def find_entities(self, name: str | None, kind: str | None, cursor: str | None) -> Json:
        """`GET /api/entities?name=&kind=&cursor=` → `{"entities": [...], "next_cursor"}`: the
        entities spelled like `name`, else of `kind`, else all, by id."""
        ...

    def entity_mentions(self, entity_id: str, *, caller: str | None) -> list[Json]:
        """`GET /api/entities/{id}/mentions`."""
        ...

    def entity_candidates(self, entity_id: str, status: str = "pending") -> list[Json]:
        """`GET /api/entities/{id}/candidates?status=`: its review links, pending by default
        (`settled`, `all`)."""
        ...

    def review_links(
        self, status: str, kind: str | None, reason: str | None, cursor: str | None
    ) -> Json:
        """`GET /api/review-links?status=&kind=&reason=&cursor=` → `{"links", "next_cursor"}`."""
        ...

    def settle_review_link(self, entity_id: str, other_id: str, body: Json) -> Json:
        """`POST /api/entities/{id}/candidates/{other}` `{"verdict"}`: the older entity."""
        ...

    def add_alias(self, entity_id: str, body: Json) -> Json:
        """`POST /api/entities/{id}/aliases`."""
        ...
