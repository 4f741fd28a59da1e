"""What the MCP tools call: the HTTP routes, in-process or over HTTP (as the CLI does).

`LocalPalace` calls the route functions on a started `Runtime`, like `api.client.local`; the HTTP
app's `/mcp` endpoint uses it on the app's own runtime. `HttpPalace` sends the same requests to
a running service, like `api.client.http`. Both answer the JSON the HTTP API returns, so a tool is
written once and behaves the same over stdio, over `/mcp`, and through a service.
"""

from typing import Protocol
from urllib.parse import quote

from api.client.http import HttpClient
from api.client.local import LocalClient, as_json_document
from api.client.protocol import Json
from api.http.routes import drawers as drawers_routes
from api.http.routes import duplicates as duplicates_routes
from api.http.routes import entities as entities_routes
from api.http.schemas.drawers import DiaryCreate, DrawerCreate
from api.http.schemas.duplicates import VerdictCreate
from api.http.schemas.entities import AliasCreate
from api.service.runtime import Runtime


class Palace(Protocol):
    def as_caller(self, agent: str | None) -> "Palace":
        """The palace as seen by the agent a caller's bearer token names (its own diary only)."""
        ...

    def write_drawer(self, wing: str, room: str, body: DrawerCreate) -> Json:
        """`POST /api/wings/{wing}/rooms/{room}/drawers`."""
        ...

    def write_diary(self, body: DiaryCreate) -> Json:
        """`POST /api/diary`."""
        ...

    def drawer(self, drawer_id: str) -> Json:
        """`GET /api/drawers/{id}`."""
        ...

    def drawer_duplicates(self, drawer_id: str) -> Json:
        """`GET /api/drawers/{id}/duplicates`: the SIMILAR_TO links."""
        ...

    def find_duplicates(self, wing: str | None, room: str | None, threshold: float) -> Json:
        """`GET /api/duplicates`: clusters of drawers alike in meaning."""
        ...

    def mark_checked(self, body: VerdictCreate) -> Json:
        """`POST /api/duplicates/verdicts`."""
        ...

    def resolve(self, name: str, kind: str) -> Json:
        """`POST /api/resolve`: the dry run."""
        ...

    def entity_candidates(self, entity_id: str) -> list[Json]:
        """`GET /api/entities/{id}/candidates`: the pending review links."""
        ...

    def add_alias(self, entity_id: str, body: AliasCreate) -> Json:
        """`POST /api/entities/{id}/aliases`."""
        ...

    def hygiene(self) -> Json:
        """`GET /api/hygiene`."""
        ...


class LocalPalace(LocalClient):
    """The route functions themselves, on a runtime this process owns (or the app's)."""

    def __init__(self, runtime: Runtime, caller: str | None = None) -> None:
        super().__init__(runtime)
        self._caller = caller

    def as_caller(self, agent: str | None) -> "LocalPalace":
        return LocalPalace(self._runtime, agent)

    def write_drawer(self, wing: str, room: str, body: DrawerCreate) -> Json:
        return as_json_document(drawers_routes.write_drawer(wing, room, body, self._runtime))

    def write_diary(self, body: DiaryCreate) -> Json:
        return as_json_document(drawers_routes.write_diary(body, self._runtime, self._caller))

    def drawer(self, drawer_id: str) -> Json:
        found = drawers_routes.get_drawer(drawer_id, self._runtime.store, self._caller)
        return as_json_document(found)

    def drawer_duplicates(self, drawer_id: str) -> Json:
        found = drawers_routes.drawer_duplicates(drawer_id, self._runtime.store, self._caller)
        return as_json_document(found)

    def find_duplicates(self, wing: str | None, room: str | None, threshold: float) -> Json:
        found = duplicates_routes.find_duplicates(self._runtime.store, wing, room, threshold)
        return as_json_document(found)

    def mark_checked(self, body: VerdictCreate) -> Json:
        return as_json_document(duplicates_routes.post_verdict(body, self._runtime.store))

    def add_alias(self, entity_id: str, body: AliasCreate) -> Json:
        return as_json_document(entities_routes.add_alias(entity_id, body, self._runtime.store))

    def hygiene(self) -> Json:
        return as_json_document(duplicates_routes.get_hygiene(self._runtime.store))


def _path(segment: str) -> str:
    return quote(segment, safe="")


class HttpPalace(HttpClient):
    """The same requests, sent to a running service; its token says who is calling."""

    def __enter__(self) -> "HttpPalace":
        return self

    def as_caller(self, agent: str | None) -> "HttpPalace":
        return self

    def write_drawer(self, wing: str, room: str, body: DrawerCreate) -> Json:
        path = f"/api/wings/{_path(wing)}/rooms/{_path(room)}/drawers"
        return self._object("POST", path, json=body.model_dump(mode="json", exclude_none=True))

    def write_diary(self, body: DiaryCreate) -> Json:
        return self._object("POST", "/api/diary", json=body.model_dump(mode="json"))

    def drawer(self, drawer_id: str) -> Json:
        return self._object("GET", f"/api/drawers/{_path(drawer_id)}")

    def drawer_duplicates(self, drawer_id: str) -> Json:
        return self._object("GET", f"/api/drawers/{_path(drawer_id)}/duplicates")

    def find_duplicates(self, wing: str | None, room: str | None, threshold: float) -> Json:
        params = {"wing": wing, "room": room, "threshold": threshold}
        given = {key: value for key, value in params.items() if value is not None}
        return self._object("GET", "/api/duplicates", params=given)

    def mark_checked(self, body: VerdictCreate) -> Json:
        verdict = body.model_dump(mode="json", exclude_none=True)
        return self._object("POST", "/api/duplicates/verdicts", json=verdict)

    def add_alias(self, entity_id: str, body: AliasCreate) -> Json:
        path = f"/api/entities/{_path(entity_id)}/aliases"
        return self._object("POST", path, json=body.model_dump(mode="json"))

    def hygiene(self) -> Json:
        return self._object("GET", "/api/hygiene")
