"""Entity routes (design §5.6): resolve mentions, read entities, curate aliases and reviews.

Each calls one use case of `api.usecases` (`mentions`, `entities`, `review`)."""

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse

from castlegraph.api.http.deps import CallerAgent, StoredUseCases, UseCasesDep
from castlegraph.api.http.openapi import IDEMPOTENT
from castlegraph.api.http.schemas.errors import BY_ID, TOKEN, WRITE, errors
from castlegraph.api.models.common import Label
from castlegraph.api.models.entities import (
    REVIEW_REASONS,
    AliasCreate,
    CandidateOut,
    EntityOut,
    EntityPage,
    ResolveOut,
    ResolveQuery,
    ReviewLinkPage,
    ReviewVerdictCreate,
    SettledOut,
)
from castlegraph.api.models.mentions import (
    EntityMentionOut,
    MentionBatchCreate,
    MentionBatchOut,
    MentionCreate,
    MentionOut,
)
from castlegraph.api.usecases.entities import MENTIONS_LIMIT
from castlegraph.api.usecases.review import Shown

router = APIRouter(tags=["entities"])


@router.post(
    "/api/mentions",
    response_model=MentionBatchOut,
    responses=errors(TOKEN, WRITE),
    openapi_extra=IDEMPOTENT,
)
def post_mentions(body: MentionBatchCreate, usecases: UseCasesDep, caller: CallerAgent) -> Response:
    """Resolve a batch of mentions, in order, to entities, each in the drawer it names (the id
    a drawer write answered): a result per mention, in the same order. All are stored or none:
    one bad mention refuses the batch. Another agent's diary entry is, to an agent's token, a
    drawer that does not exist."""
    answer = usecases.mentions.resolve_batch(body, caller)
    return Response(answer, media_type="application/json")


@router.post(
    "/api/drawers/{drawer_id}/mentions",
    response_model=MentionOut,
    responses={
        **errors(TOKEN, WRITE, BY_ID),
        200: {"model": MentionOut, "description": "the drawer already mentioned the entity"},
        201: {"model": MentionOut, "description": "the mention was recorded"},
    },
    openapi_extra=IDEMPOTENT,
)
def post_drawer_mention(
    drawer_id: str, body: MentionCreate, usecases: UseCasesDep, caller: CallerAgent
) -> JSONResponse:
    """One mention of an entity in this drawer: 201 when it is the drawer's first mention of
    that entity, 200 when the drawer already mentioned it."""
    mentioned = usecases.mentions.resolve_in_drawer(drawer_id, body, caller)
    return JSONResponse(mentioned.body, status_code=201 if mentioned.changed else 200)


@router.get("/api/entities", response_model=EntityPage, responses=errors(TOKEN, 400, 422))
def list_entities(
    usecases: UseCasesDep,
    name: Annotated[
        Label | None,
        Query(description="Only the entities whose name or an alias has this name's key."),
    ] = None,
    kind: Annotated[Label | None, Query(description="Only the entities of this kind.")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
) -> EntityPage:
    """Entities by id, a page at a time: those spelled like `name`, or of `kind`, or all of
    them; `next_cursor` fetches the next page."""
    return usecases.entities.find(name, kind, limit, cursor)


@router.get("/api/entities/{entity_id}", response_model=EntityOut, responses=errors(TOKEN, BY_ID))
def get_entity(entity_id: str, usecases: StoredUseCases) -> EntityOut:
    """An entity: its canonical name, kind, key and aliases."""
    return usecases.entities.get(entity_id)


@router.get(
    "/api/entities/{entity_id}/mentions",
    response_model=list[EntityMentionOut],
    responses=errors(TOKEN, BY_ID, 422),
)
def entity_mentions(
    entity_id: str,
    usecases: StoredUseCases,
    caller: CallerAgent,
    limit: Annotated[int, Query(ge=1, le=100_000)] = MENTIONS_LIMIT,
) -> list[EntityMentionOut]:
    """Where the entity is mentioned, newest first, with each observation's provenance (not
    in another agent's diary entries, for an agent's token)."""
    return usecases.entities.mentions(entity_id, caller, limit)


@router.get(
    "/api/entities/{entity_id}/candidates",
    response_model=list[CandidateOut],
    responses=errors(TOKEN, BY_ID, 422),
)
def entity_candidates(
    entity_id: str, usecases: StoredUseCases, status: Annotated[Shown, Query()] = "pending"
) -> list[CandidateOut]:
    """The entity's review links (entities that may be the same one), by similarity descending
    then id: the pending ones, or with `status=settled` those settled (`same` or `different`),
    or `all`."""
    return usecases.review.candidates(entity_id, status)


@router.get("/api/review-links", response_model=ReviewLinkPage, responses=errors(TOKEN, 400, 422))
def list_review_links(
    usecases: StoredUseCases,
    status: Annotated[Literal["pending", "same", "different"], Query()] = "pending",
    kind: Annotated[Label | None, Query()] = None,
    reason: Annotated[
        Label | None, Query(description=f"Only links of this reason: {REVIEW_REASONS}.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    cursor: Annotated[str | None, Query(max_length=400)] = None,
) -> ReviewLinkPage:
    """Review links of one status, by similarity descending then the older and the newer
    entity's id; `kind` on either side. Entities are not an agent's own, so every token sees
    every link."""
    return usecases.review.links(status, kind, reason, limit, cursor)


@router.post(
    "/api/entities/{entity_id}/aliases",
    response_model=EntityOut,
    responses=errors(TOKEN, WRITE, BY_ID),
    openapi_extra=IDEMPOTENT,
)
def add_alias(entity_id: str, body: AliasCreate, usecases: UseCasesDep) -> EntityOut:
    """Record a spelling; later sightings converge by rule `alias`. Nothing is merged, and a
    spelling of another entity is refused (`graph::alias_taken`): that is a `same` verdict."""
    return usecases.review.add_alias(entity_id, body)


@router.post(
    "/api/entities/{entity_id}/candidates/{other_id}",
    response_model=SettledOut,
    responses=errors(TOKEN, WRITE, BY_ID),
    openapi_extra=IDEMPOTENT,
)
def settle_candidate(
    entity_id: str, other_id: str, body: ReviewVerdictCreate, usecases: StoredUseCases
) -> SettledOut:
    """`same` records the newer name as an alias of the older (returned); `different` closes,
    and on a link settled `same` removes that alias again (`"undone": "same"`)."""
    return usecases.review.settle(entity_id, other_id, body)


@router.post(
    "/api/resolve",
    response_model=ResolveOut,
    responses=errors(TOKEN, WRITE),
    openapi_extra=IDEMPOTENT,
)
def resolve(body: ResolveQuery, usecases: UseCasesDep) -> ResolveOut:
    """Dry run: what `(name, kind)` would resolve to, with the evidence. Writes nothing."""
    return usecases.mentions.dry_run(body)
