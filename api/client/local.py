"""The in-process client: the HTTP routes called as functions on a started `Runtime`.

Calling the route functions themselves (not copies of what they do) keeps one definition of
each use case's checks and answer: a request body goes through the same pydantic model, the
same `api.http.limits` checks and the same `graph` use case, and comes back as the same JSON.
"""

import json
from typing import TypeVar

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError

from api.client.protocol import Json
from api.errors import ApiError
from api.http.routes import entities as entities_routes
from api.http.routes import jobs as jobs_routes
from api.http.schemas.entities import ResolveQuery
from api.http.schemas.jobs import CheckpointCreate, MineCreate
from api.service.runtime import Runtime

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
        raise ApiError(422, "input::invalid", "the request is invalid", details) from error


def as_json_document(answer: BaseModel | JSONResponse) -> Json:
    if isinstance(answer, JSONResponse):
        decoded: Json = json.loads(bytes(answer.body))
        return decoded
    return answer.model_dump(mode="json")


class LocalClient:
    remote = False

    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime

    def mine(self, body: Json) -> Json:
        return as_json_document(jobs_routes.post_mine(_request(MineCreate, body), self._runtime))

    def checkpoint(self, body: Json) -> Json:
        return as_json_document(
            jobs_routes.post_checkpoint(_request(CheckpointCreate, body), self._runtime)
        )

    def job(self, job_id: str) -> Json:
        return as_json_document(jobs_routes.get_job(job_id, self._runtime.store))

    def jobs(self, limit: int) -> Json:
        return as_json_document(jobs_routes.list_jobs(self._runtime.store, limit))

    def resolve(self, name: str, kind: str) -> Json:
        request = _request(ResolveQuery, {"name": name, "kind": kind})
        return as_json_document(entities_routes.resolve(request, self._runtime))

    def find_entities(self, name: str, kind: str | None, cursor: str | None) -> Json:
        found = entities_routes.list_entities(
            name=name, store=self._runtime.store, kind=kind, limit=PAGE, cursor=cursor
        )
        return as_json_document(found)

    def entity_mentions(self, entity_id: str) -> list[Json]:
        found = entities_routes.entity_mentions(entity_id, self._runtime.store)
        return [as_json_document(m) for m in found]

    def entity_candidates(self, entity_id: str) -> list[Json]:
        found = entities_routes.entity_candidates(entity_id, self._runtime.store)
        return [as_json_document(c) for c in found]
