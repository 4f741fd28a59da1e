"""The HTTP client: the same calls as the in-process client, against a running service.

One `httpx2.Client` per command (a connection pool, never one per request). A non-2xx answer's
envelope (design §7) is raised as a `RemoteError`, so the command reports it as it would the same
error in-process.
"""

from collections.abc import Mapping
from types import TracebackType
from typing import Any
from urllib.parse import quote

import httpx2 as httpx

from castlegraph.api.client.protocol import Json
from castlegraph.api.errors import ApiError, DoorCode, ServiceUnreachable, WireCode
from castlegraph.api.service.settings import Settings
from castlegraph.api.service.tokens import Token

TIMEOUT_SECONDS = 60.0
PAGE = 100
NO_CONTENT = 204


class RemoteError(ApiError):
    """The error envelope of a service's answer, raised as the service's own error would be
    raised in-process: its code is the answer's, and `status` the answer's HTTP status."""

    def __init__(self, status: int, code: WireCode, message: str, details: Any = None) -> None:
        super().__init__(message, details)
        self.status = status
        self.code = code


def _error(response: httpx.Response) -> RemoteError:
    """The answer's envelope; an answer without one (or with a code this client does not know)
    as `http::error` with the answer's text."""
    status = response.status_code
    try:
        error = response.json()["error"]
        return RemoteError(status, WireCode(error["code"]), error["message"], error.get("details"))
    except (ValueError, KeyError, TypeError):
        text = response.text.strip()[:200] or response.reason_phrase
        return RemoteError(status, DoorCode.HTTP_ERROR, f"HTTP {status}: {text}")


def _segment(value: str) -> str:
    """A value as one path segment: `/`, `?` and `#` in an id or a name are escaped."""
    return quote(value, safe="")


Query = dict[str, str | int | float]


def _given(params: Mapping[str, str | int | float | None]) -> Query:
    """The query parameters that have a value: an absent one takes the route's default."""
    return {key: value for key, value in params.items() if value is not None}


class HttpClient:
    """Calls a running service. Who calls is said by the token it sends (the first configured
    one): the service reads the agent from it, so the protocol's `caller` arguments change
    nothing here."""

    remote = True

    def __init__(self, url: str, settings: Settings) -> None:
        self.url = url.rstrip("/")
        headers = {"Accept": "application/json"}
        if settings.api.tokens:  # `AGENT:SECRET` is presented as SECRET, as the service parses it
            secret = Token.parse(settings.api.tokens[0].get_secret_value()).secret.decode()
            headers["Authorization"] = f"Bearer {secret}"
        self._http = httpx.Client(base_url=self.url, headers=headers, timeout=TIMEOUT_SECONDS)

    def __enter__(self) -> "HttpClient":
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._http.close()

    def _call(self, method: str, path: str, **options: Any) -> Any:
        """The decoded JSON of a 2xx answer (None for a 204, which has no body); the envelope's
        error otherwise."""
        try:
            response = self._http.request(method, path, **options)
        except httpx.TransportError as error:
            raise ServiceUnreachable(f"cannot reach the service at {self.url}: {error}") from error
        if response.is_error:
            raise _error(response)
        return None if response.status_code == NO_CONTENT else response.json()

    def _object(self, method: str, path: str, **options: Any) -> Json:
        answer: Json = self._call(method, path, **options)
        return answer

    def _list(self, path: str) -> list[Json]:
        answer: list[Json] = self._call("GET", path)
        return answer

    def migrations(self) -> Json:
        return self._object("GET", "/api/migrations")

    def mine(self, body: Json) -> Json:
        return self._object("POST", "/api/mine", json=body)

    def checkpoint(self, body: Json) -> Json:
        return self._object("POST", "/api/checkpoints", json=body)

    def job(self, job_id: str) -> Json:
        return self._object("GET", f"/api/jobs/{_segment(job_id)}")

    def cancel_job(self, job_id: str) -> Json:
        return self._object("POST", f"/api/jobs/{_segment(job_id)}/cancel")

    def jobs(self, limit: int) -> Json:
        return self._object("GET", "/api/jobs", params={"limit": limit})

    def write_drawer(self, wing: str, room: str, body: Json, *, caller: str | None) -> Json:
        path = f"/api/wings/{_segment(wing)}/rooms/{_segment(room)}/drawers"
        return self._object("POST", path, json=body)

    def write_diary(self, body: Json, *, caller: str | None) -> Json:
        return self._object("POST", "/api/diary", json=body)

    def drawer(self, drawer_id: str, *, caller: str | None) -> Json:
        return self._object("GET", f"/api/drawers/{_segment(drawer_id)}")

    def room_drawers(
        self, wing: str, room: str, limit: int, cursor: str | None, *, caller: str | None
    ) -> Json:
        path = f"/api/wings/{_segment(wing)}/rooms/{_segment(room)}/drawers"
        return self._object("GET", path, params=_given({"limit": limit, "cursor": cursor}))

    def search_drawers(
        self, wing: str, room: str, text: str, limit: int, *, caller: str | None
    ) -> Json:
        path = f"/api/wings/{_segment(wing)}/rooms/{_segment(room)}/search"
        return self._object("GET", path, params={"q": text, "limit": limit})

    def supersede_drawer(self, drawer_id: str, body: Json, *, caller: str | None) -> Json:
        return self._object("PUT", f"/api/drawers/{_segment(drawer_id)}", json=body)

    def delete_drawer(self, drawer_id: str, *, caller: str | None) -> None:
        self._call("DELETE", f"/api/drawers/{_segment(drawer_id)}")

    def drawer_duplicates(self, drawer_id: str, *, caller: str | None) -> Json:
        return self._object("GET", f"/api/drawers/{_segment(drawer_id)}/duplicates")

    def find_duplicates(
        self, wing: str | None, room: str | None, threshold: float, *, caller: str | None
    ) -> Json:
        params = {"wing": wing, "room": room, "threshold": threshold}
        return self._object("GET", "/api/duplicates", params=_given(params))

    def mark_checked(self, body: Json, *, caller: str | None) -> Json:
        return self._object("POST", "/api/duplicates/verdicts", json=body)

    def hygiene(self, *, caller: str | None) -> Json:
        return self._object("GET", "/api/hygiene")

    def resolve(self, name: str, kind: str) -> Json:
        return self._object("POST", "/api/resolve", json={"name": name, "kind": kind})

    def post_mentions(self, body: Json, *, caller: str | None) -> Json:
        return self._object("POST", "/api/mentions", json=body)

    def find_entities(self, name: str | None, kind: str | None, cursor: str | None) -> Json:
        params = {"name": name, "kind": kind, "cursor": cursor, "limit": PAGE}
        return self._object("GET", "/api/entities", params=_given(params))

    def entity_mentions(self, entity_id: str, *, caller: str | None) -> list[Json]:
        return self._list(f"/api/entities/{_segment(entity_id)}/mentions")

    def entity_candidates(self, entity_id: str, status: str = "pending") -> list[Json]:
        path = f"/api/entities/{_segment(entity_id)}/candidates"
        answer: list[Json] = self._call("GET", path, params={"status": status})
        return answer

    def review_links(
        self, status: str, kind: str | None, reason: str | None, cursor: str | None
    ) -> Json:
        params = {"status": status, "kind": kind, "reason": reason, "cursor": cursor, "limit": PAGE}
        return self._object("GET", "/api/review-links", params=_given(params))

    def settle_review_link(self, entity_id: str, other_id: str, body: Json) -> Json:
        path = f"/api/entities/{_segment(entity_id)}/candidates/{_segment(other_id)}"
        return self._object("POST", path, json=body)

    def add_alias(self, entity_id: str, body: Json) -> Json:
        return self._object("POST", f"/api/entities/{_segment(entity_id)}/aliases", json=body)
