"""The in-process client: the HTTP routes called as functions on a started `Runtime`.

Calling the route functions themselves (not copies of what they do) keeps one definition of
each use case's checks and answer: a request body goes through the same pydantic model, the
same `api.service.limits` checks and the same `graph` use case, and comes back as the same JSON.
The HTTP app's `/mcp` endpoint uses this client on the app's own runtime.
"""

import json
from typing import TypeVar

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError

from castlegraph.api.client.protocol import Json
from castlegraph.api.errors import InvalidRequest
from castlegraph.api.http.routes import drawers as drawers_routes
from castlegraph.api.http.routes import duplicates as duplicates_routes
from castlegraph.api.http.routes import entities as entities_routes
from castlegraph.api.http.routes import jobs as jobs_routes
from castlegraph.api.models.drawers import DiaryCreate, DrawerCreate
from castlegraph.api.models.duplicates import VerdictCreate
from castlegraph.api.models.entities import (
    AliasCreate,
    CandidatesQuery,
    ResolveQuery,
    ReviewLinksQuery,
    ReviewVerdictCreate,
)
from castlegraph.api.models.jobs import CheckpointCreate, MineCreate
from castlegraph.api.service.mine_paths import server_path
from castlegraph.api.service.runtime import Runtime

Model = TypeVar("Model", bound=BaseModel)
PAGE = 100


def _request(model: type[Model], body: Json) -> Model:
    """The body validated as the route would; refused with the envelope's 422 otherwise."""
    try:
        return model.model_validate(body)
    except ValidationError as error:
        details = [
            {"loc": ["body", *item["loc"]], "msg": item["msg"], "type": item["type"]}
            for item in error.errors()
        ]
        raise InvalidRequest(details) from error


def _as_json(answer: BaseModel | JSONResponse) -> Json:
    """A route's answer as the JSON document HTTP would send."""
    if isinstance(answer, JSONResponse):
        decoded: Json = json.loads(bytes(answer.body))
        return decoded
    return answer.model_dump(mode="json")


class LocalClient:
    remote = False

    def __init__(self, runtime: Runtime, *, local_user: bool = False) -> None:
        """`local_user`: the caller is the user running this process (the CLI), who may mine
        any path they can read; otherwise (`/mcp` on the HTTP app) the service's rules apply."""
        self._runtime = runtime
        self._local_user = local_user

    def mine(self, body: Json) -> Json:
        """Mining roots bound what the service reads for others, not what the local user's own
        `castlegraph mine` reads (design §8.1)."""
        request = _request(MineCreate, body)
        if not self._local_user:
            return _as_json(jobs_routes.post_mine(request, self._runtime, None))
        root = server_path(request.path)
        return _as_json(jobs_routes.start_mine(request, self._runtime, root))

    def checkpoint(self, body: Json) -> Json:
        request = _request(CheckpointCreate, body)
        return _as_json(jobs_routes.post_checkpoint(request, self._runtime, None))

    def job(self, job_id: str) -> Json:
        return _as_json(jobs_routes.get_job(job_id, self._runtime.store, None))

    def cancel_job(self, job_id: str) -> Json:
        return _as_json(jobs_routes.cancel_job(job_id, self._runtime.store, None))

    def jobs(self, limit: int) -> Json:
        return _as_json(jobs_routes.list_jobs(self._runtime.store, None, limit))

    def write_drawer(self, wing: str, room: str, body: Json, *, caller: str | None) -> Json:
        request = _request(DrawerCreate, body)
        return _as_json(drawers_routes.write_drawer(wing, room, request, self._runtime, caller))

    def write_diary(self, body: Json, *, caller: str | None) -> Json:
        request = _request(DiaryCreate, body)
        return _as_json(drawers_routes.write_diary(request, self._runtime, caller))

    def drawer(self, drawer_id: str, *, caller: str | None) -> Json:
        return _as_json(drawers_routes.get_drawer(drawer_id, self._runtime.store, caller))

    def drawer_duplicates(self, drawer_id: str, *, caller: str | None) -> Json:
        return _as_json(drawers_routes.drawer_duplicates(drawer_id, self._runtime.store, caller))

    def find_duplicates(
        self, wing: str | None, room: str | None, threshold: float, *, caller: str | None
    ) -> Json:
        store = self._runtime.store
        with self._runtime.heavy_reads.held():
            found = duplicates_routes.duplicate_clusters(store, caller, wing, room, threshold)
        return _as_json(found)

    def mark_checked(self, body: Json, *, caller: str | None) -> Json:
        request = _request(VerdictCreate, body)
        return _as_json(duplicates_routes.post_verdict(request, self._runtime.store, caller))

    def hygiene(self, *, caller: str | None) -> Json:
        with self._runtime.heavy_reads.held():
            return _as_json(duplicates_routes.hygiene_counts(self._runtime.store, caller))

    def resolve(self, name: str, kind: str) -> Json:
        request = _request(ResolveQuery, {"name": name, "kind": kind})
        return _as_json(entities_routes.resolve(request, self._runtime))

    def find_entities(self, name: str | None, kind: str | None, cursor: str | None) -> Json:
        found = entities_routes.list_entities(
            name=name, runtime=self._runtime, kind=kind, limit=PAGE, cursor=cursor
        )
        return _as_json(found)

    def entity_mentions(self, entity_id: str, *, caller: str | None) -> list[Json]:
        found = entities_routes.entity_mentions(entity_id, self._runtime.store, caller)
        return [_as_json(mention) for mention in found]

    def entity_candidates(self, entity_id: str, status: str = "pending") -> list[Json]:
        shown = _request(CandidatesQuery, {"status": status}).status
        found = entities_routes.entity_candidates(entity_id, self._runtime.store, shown)
        return [_as_json(candidate) for candidate in found]

    def review_links(
        self, status: str, kind: str | None, reason: str | None, cursor: str | None
    ) -> Json:
        query = _request(
            ReviewLinksQuery, {"status": status, "kind": kind, "reason": reason, "cursor": cursor}
        )
        found = entities_routes.list_review_links(
            self._runtime.store,
            query.status,
            query.kind,
            query.reason,
            limit=PAGE,
            cursor=query.cursor,
        )
        return _as_json(found)

    def settle_review_link(self, entity_id: str, other_id: str, body: Json) -> Json:
        request = _request(ReviewVerdictCreate, body)
        store = self._runtime.store
        return _as_json(entities_routes.settle_candidate(entity_id, other_id, request, store))

    def add_alias(self, entity_id: str, body: Json) -> Json:
        request = _request(AliasCreate, body)
        return _as_json(entities_routes.add_alias(entity_id, request, self._runtime))
