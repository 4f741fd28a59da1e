"""The in-process client: the use cases called directly, on a started `Runtime`.

The same `api.usecases` the HTTP routes call, with the same request models validating each
body, so a command or an MCP tool gets the JSON HTTP would send (`model_dump(mode="json")` of
the same answer model), without a route or a response in between. The HTTP app's `/mcp`
endpoint uses this client on the app's own use cases.
"""

import json
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from castlegraph.api.client.protocol import Json
from castlegraph.api.errors import InvalidRequest
from castlegraph.api.models.drawers import (
    DiaryCreate,
    DrawerCreate,
    DrawerSearchQuery,
    DrawerUpdate,
    RoomPageQuery,
)
from castlegraph.api.models.duplicates import VerdictCreate
from castlegraph.api.models.entities import (
    AliasCreate,
    CandidatesQuery,
    ResolveQuery,
    ReviewLinksQuery,
    ReviewVerdictCreate,
)
from castlegraph.api.models.jobs import CheckpointCreate, MineCreate
from castlegraph.api.models.mentions import MentionBatchCreate
from castlegraph.api.usecases.assembly import UseCases

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


def _json(answer: BaseModel) -> Json:
    """An answer model as the JSON document HTTP sends."""
    return answer.model_dump(mode="json")


class LocalClient:
    remote = False

    def __init__(self, usecases: UseCases, *, local_user: bool = False) -> None:
        """`local_user`: the caller is the user running this process (the CLI), who may mine
        any path they can read; otherwise (`/mcp` on the HTTP app) the service's rules apply."""
        self._usecases = usecases
        self._local_user = local_user

    def mine(self, body: Json) -> Json:
        """Mining roots bound what the service reads for others, not what the local user's own
        `castlegraph mine` reads (design §8.1)."""
        request = _request(MineCreate, body)
        if not self._local_user:
            return _json(self._usecases.jobs.mine(request, None))
        return _json(self._usecases.jobs.mine_as_local_user(request))

    def checkpoint(self, body: Json) -> Json:
        return _json(self._usecases.jobs.checkpoint(_request(CheckpointCreate, body), None))

    def job(self, job_id: str) -> Json:
        return _json(self._usecases.jobs.get(job_id, None))

    def cancel_job(self, job_id: str) -> Json:
        return self._usecases.jobs.cancel(job_id, None).body

    def jobs(self, limit: int) -> Json:
        return _json(self._usecases.jobs.recent(limit, None))

    def write_drawer(self, wing: str, room: str, body: Json, *, caller: str | None) -> Json:
        request = _request(DrawerCreate, body)
        return self._usecases.drawers.write(wing, room, request, caller).body

    def write_diary(self, body: Json, *, caller: str | None) -> Json:
        return self._usecases.drawers.write_diary(_request(DiaryCreate, body), caller).body

    def drawer(self, drawer_id: str, *, caller: str | None) -> Json:
        return _json(self._usecases.drawers.get(drawer_id, caller))

    def room_drawers(
        self, wing: str, room: str, limit: int, cursor: str | None, *, caller: str | None
    ) -> Json:
        query = _request(RoomPageQuery, {"limit": limit, "cursor": cursor})
        return _json(
            self._usecases.drawers.list_room(wing, room, query.limit, query.cursor, caller)
        )

    def search_drawers(
        self, wing: str, room: str, text: str, limit: int, *, caller: str | None
    ) -> Json:
        query = _request(DrawerSearchQuery, {"q": text, "limit": limit})
        return _json(self._usecases.drawers.search(wing, room, query.q, query.limit, caller))

    def supersede_drawer(self, drawer_id: str, body: Json, *, caller: str | None) -> Json:
        request = _request(DrawerUpdate, body)
        return self._usecases.drawers.supersede(drawer_id, request, caller).body

    def delete_drawer(self, drawer_id: str, *, caller: str | None) -> None:
        self._usecases.drawers.delete(drawer_id, caller)

    def drawer_duplicates(self, drawer_id: str, *, caller: str | None) -> Json:
        return _json(self._usecases.drawers.duplicates(drawer_id, caller))

    def find_duplicates(
        self, wing: str | None, room: str | None, threshold: float, *, caller: str | None
    ) -> Json:
        return _json(self._usecases.duplicates.find(wing, room, threshold, caller))

    def mark_checked(self, body: Json, *, caller: str | None) -> Json:
        return _json(self._usecases.duplicates.judge(_request(VerdictCreate, body), caller))

    def hygiene(self, *, caller: str | None) -> Json:
        return _json(self._usecases.duplicates.hygiene(caller))

    def resolve(self, name: str, kind: str) -> Json:
        request = _request(ResolveQuery, {"name": name, "kind": kind})
        return _json(self._usecases.mentions.dry_run(request))

    def post_mentions(self, body: Json, *, caller: str | None) -> Json:
        request = _request(MentionBatchCreate, body)
        answer: Json = json.loads(self._usecases.mentions.resolve_batch(request, caller))
        return answer

    def find_entities(self, name: str | None, kind: str | None, cursor: str | None) -> Json:
        return _json(self._usecases.entities.find(name, kind, PAGE, cursor))

    def entity_mentions(self, entity_id: str, *, caller: str | None) -> list[Json]:
        return [_json(m) for m in self._usecases.entities.mentions(entity_id, caller)]

    def entity_candidates(self, entity_id: str, status: str = "pending") -> list[Json]:
        shown = _request(CandidatesQuery, {"status": status}).status
        return [_json(c) for c in self._usecases.review.candidates(entity_id, shown)]

    def review_links(
        self, status: str, kind: str | None, reason: str | None, cursor: str | None
    ) -> Json:
        query = _request(
            ReviewLinksQuery, {"status": status, "kind": kind, "reason": reason, "cursor": cursor}
        )
        found = self._usecases.review.links(
            query.status, query.kind, query.reason, PAGE, query.cursor
        )
        return _json(found)

    def settle_review_link(self, entity_id: str, other_id: str, body: Json) -> Json:
        request = _request(ReviewVerdictCreate, body)
        return _json(self._usecases.review.settle(entity_id, other_id, request))

    def add_alias(self, entity_id: str, body: Json) -> Json:
        return _json(self._usecases.review.add_alias(entity_id, _request(AliasCreate, body)))
