"""Entity routes (design §5.6): resolve mentions, read entities, curate aliases and reviews."""

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse

from castlegraph.api.errors import BlankLabel, PayloadTooLarge
from castlegraph.api.http.deps import IDEMPOTENT, CallerAgent, RuntimeDep, StoreDep
from castlegraph.api.http.schemas.errors import BY_ID, TOKEN, WRITE, errors
from castlegraph.api.models.common import Label
from castlegraph.api.models.entities import (
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
from castlegraph.graph.entities import entity_curation as curation
from castlegraph.graph.entities.browse import entities_page
from castlegraph.graph.entities.resolution import MentionInput, dry_run, resolve_mentions
from castlegraph.graph.entities.review_links import review_links
from castlegraph.graph.errors import DrawerNotFound, UnknownDrawers
from castlegraph.resolver.entity_keys import normalize_kind
from castlegraph.resolver.entity_model import make_mention
from castlegraph.resolver.errors import EmptyLabel

router = APIRouter(tags=["entities"])
Shown = Literal["pending", "settled", "all"]
"""Which review links of an entity its candidates route lists."""


def _input(
    drawer: str, fields: MentionCreate | ResolveQuery, index: int | None = None
) -> MentionInput:
    try:
        mention = make_mention(fields.name, fields.kind)
    except EmptyLabel as error:
        details: dict[str, object] = {"field": error.field}
        if index is not None:
            details = {"index": index, **details}
        raise BlankLabel(f"the mention's {error.field} is blank", details) from error
    if isinstance(fields, ResolveQuery):
        return MentionInput(drawer=drawer, mention=mention)
    return MentionInput(
        drawer=drawer,
        mention=mention,
        extractor=fields.extractor,
        origin=dict(fields.origin),
        job_id=fields.job_id,
        extracted_at=fields.extracted_at,
    )


@router.post(
    "/api/mentions",
    response_model=MentionBatchOut,
    responses=errors(TOKEN, WRITE),
    dependencies=[IDEMPOTENT],
)
def post_mentions(body: MentionBatchCreate, runtime: RuntimeDep, caller: CallerAgent) -> Response:
    """Resolve a batch of mentions, in order, to entities, each in the drawer it names (the id
    a drawer write answered): a result per mention, in the same order. All are stored or none:
    one bad mention refuses the batch. Another agent's diary entry is, to an agent's token, a
    drawer that does not exist."""
    # The answer is serialised by pydantic's own JSON encoder in one call, from plain values
    # (`MentionBatchOut.json_of`): handing FastAPI the model instead had it validate and convert
    # a thousand results again in Python, and building the models was most of what was left.
    limit = runtime.settings.api.max_batch
    if len(body.mentions) > limit:
        raise PayloadTooLarge(
            f"a batch holds at most {limit} mentions",
            {"mentions": len(body.mentions), "max": limit},
        )
    inputs = [_input(m.drawer, m, index) for index, m in enumerate(body.mentions)]
    results = (
        resolve_mentions(
            runtime.store,
            inputs,
            fuzzy=runtime.fuzzy,
            known_word=runtime.known_word,
            viewer=caller,
            names=runtime.names,
            memory=runtime.entity_index,
        )
        if inputs
        else []
    )
    return Response(MentionBatchOut.json_of(results), media_type="application/json")


@router.post(
    "/api/drawers/{drawer_id}/mentions",
    response_model=MentionOut,
    responses={
        **errors(TOKEN, WRITE, BY_ID),
        200: {"model": MentionOut, "description": "the drawer already mentioned the entity"},
        201: {"model": MentionOut, "description": "the mention was recorded"},
    },
    dependencies=[IDEMPOTENT],
)
def post_drawer_mention(
    drawer_id: str, body: MentionCreate, runtime: RuntimeDep, caller: CallerAgent
) -> JSONResponse:
    """One mention of an entity in this drawer: 201 when it is the drawer's first mention of
    that entity, 200 when the drawer already mentioned it."""
    try:
        [result] = resolve_mentions(
            runtime.store,
            [_input(drawer_id, body)],
            fuzzy=runtime.fuzzy,
            known_word=runtime.known_word,
            viewer=caller,
            names=runtime.names,
            memory=runtime.entity_index,
        )
    except UnknownDrawers as error:
        raise DrawerNotFound(drawer_id) from error
    body_out = MentionOut.of(result).model_dump(mode="json")
    return JSONResponse(body_out, status_code=201 if result.linked else 200)


@router.get("/api/entities", response_model=EntityPage, responses=errors(TOKEN, 400, 422))
def list_entities(
    runtime: RuntimeDep,
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
    if name is not None and not name.strip():
        raise BlankLabel("name is blank", {"field": "name"})
    wanted_kind = normalize_kind(kind) if kind is not None else None
    found, next_cursor = entities_page(
        runtime.store,
        name=name,
        kind=wanted_kind,
        limit=limit,
        cursor=cursor,
        memory=runtime.entity_index,
    )
    return EntityPage.of(found, next_cursor)


@router.get("/api/entities/{entity_id}", response_model=EntityOut, responses=errors(TOKEN, BY_ID))
def get_entity(entity_id: str, store: StoreDep) -> EntityOut:
    """An entity: its canonical name, kind, key and aliases."""
    return EntityOut.of(curation.get_entity(store, entity_id))


@router.get(
    "/api/entities/{entity_id}/mentions",
    response_model=list[EntityMentionOut],
    responses=errors(TOKEN, BY_ID, 422),
)
def entity_mentions(
    entity_id: str,
    store: StoreDep,
    caller: CallerAgent,
    limit: Annotated[int, Query(ge=1, le=100_000)] = curation.MENTIONS_LIMIT,
) -> list[EntityMentionOut]:
    """Where the entity is mentioned, newest first, with each observation's provenance (not
    in another agent's diary entries, for an agent's token)."""
    found = curation.entity_mentions(store, entity_id, limit, viewer=caller)
    return [EntityMentionOut.of(m) for m in found]


@router.get(
    "/api/entities/{entity_id}/candidates",
    response_model=list[CandidateOut],
    responses=errors(TOKEN, BY_ID, 422),
)
def entity_candidates(
    entity_id: str, store: StoreDep, status: Annotated[Shown, Query()] = "pending"
) -> list[CandidateOut]:
    """The entity's review links (entities that may be the same one), by similarity descending
    then id: the pending ones, or with `status=settled` those settled (`same` or `different`),
    or `all`."""
    found = curation.review_candidates(store, entity_id, pending_only=status == "pending")
    kept = [c for c in found if status != "settled" or c.status != "pending"]
    return [CandidateOut.of(c) for c in kept]


@router.get("/api/review-links", response_model=ReviewLinkPage, responses=errors(TOKEN, 400, 422))
def list_review_links(
    store: StoreDep,
    status: Annotated[Literal["pending", "same", "different"], Query()] = "pending",
    kind: Annotated[Label | None, Query()] = None,
    reason: Annotated[Label | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    cursor: Annotated[str | None, Query(max_length=400)] = None,
) -> ReviewLinkPage:
    """Review links of one status, by similarity descending then the older and the newer
    entity's id; `kind` on either side. Entities are not an agent's own, so every token sees
    every link."""
    wanted_kind = normalize_kind(kind) if kind is not None and kind.strip() else None
    found, next_cursor = review_links(
        store, status, kind=wanted_kind, reason=reason or None, limit=limit, cursor=cursor
    )
    return ReviewLinkPage.of(found, next_cursor)


@router.post(
    "/api/entities/{entity_id}/aliases",
    response_model=EntityOut,
    responses=errors(TOKEN, WRITE, BY_ID),
    dependencies=[IDEMPOTENT],
)
def add_alias(entity_id: str, body: AliasCreate, runtime: RuntimeDep) -> EntityOut:
    """Record a spelling; later sightings converge by rule `alias`. Nothing is merged, and a
    spelling of another entity is refused (`graph::alias_taken`): that is a `same` verdict."""
    found = curation.add_alias(runtime.store, entity_id, body.alias, runtime.entity_index)
    return EntityOut.of(found)


@router.post(
    "/api/entities/{entity_id}/candidates/{other_id}",
    response_model=SettledOut,
    responses=errors(TOKEN, WRITE, BY_ID),
    dependencies=[IDEMPOTENT],
)
def settle_candidate(
    entity_id: str, other_id: str, body: ReviewVerdictCreate, store: StoreDep
) -> SettledOut:
    """`same` records the newer name as an alias of the older (returned); `different` closes,
    and on a link settled `same` removes that alias again (`"undone": "same"`)."""
    settled = curation.settle_review(store, entity_id, other_id, body.verdict)
    return SettledOut.settled(settled)


@router.post(
    "/api/resolve",
    response_model=ResolveOut,
    responses=errors(TOKEN, WRITE),
    dependencies=[IDEMPOTENT],
)
def resolve(body: ResolveQuery, runtime: RuntimeDep) -> ResolveOut:
    """Dry run: what `(name, kind)` would resolve to, with the evidence. Writes nothing."""
    mention = _input("", body).mention
    decision, created = dry_run(
        runtime.store,
        mention,
        fuzzy=runtime.fuzzy,
        known_word=runtime.known_word,
        names=runtime.names,
        memory=runtime.entity_index,
    )
    return ResolveOut.of(decision, created)
