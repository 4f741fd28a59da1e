"""The MCP tools: thin calls on a `Client`, typed with the HTTP API's own request and answer models.

Each tool builds the route's request model (the same validation as HTTP, so a bad value is the
tool's `input::invalid` before anything is sent) and passes it to the client as the route's JSON
body. Answers are the route's response models (structured content), but for writes (their
essentials, `api.mcp.answers`) and the readable text of `find_duplicates` and `hygiene`.
"""

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from pydantic import BaseModel, Field

from castlegraph.api.client.protocol import Client, Json
from castlegraph.api.mcp.answers import DrawerDeleted, DrawerWritten, MentionsPosted
from castlegraph.api.mcp.errors import tool_errors
from castlegraph.api.mcp.text import duplicates_text, hygiene_text, scope_words, shown_drawers
from castlegraph.api.models.common import Label
from castlegraph.api.models.drawers import (
    DiaryCreate,
    DrawerCreate,
    DrawerDuplicatesOut,
    DrawerKind,
    DrawerOut,
    DrawerPage,
    DrawerSearchOut,
    DrawerUpdate,
)
from castlegraph.api.models.duplicates import DEFAULT_THRESHOLD, VerdictCreate, VerdictOut
from castlegraph.api.models.entities import (
    AliasCreate,
    CandidateOut,
    CandidatesOut,
    EntityOut,
    ResolveOut,
    ReviewLinkPage,
    ReviewVerdictCreate,
    SettledOut,
)
from castlegraph.api.models.mentions import EntityMentionOut, MentionBatchCreate, MentionIn
from castlegraph.api.service.agents import caller_agent
from castlegraph.resolver.errors import CastlegraphError, ErrorCode

Wing = Annotated[Label, Field(description="Wing of the palace: a broad area, e.g. a project.")]
Room = Annotated[Label, Field(description="Room of the wing: one topic, e.g. `deploy`.")]
DrawerId = Annotated[Label, Field(description="A drawer id, as drawer_write returns it.")]
EntityId = Annotated[Label, Field(description="An entity id, as resolve_entity returns it.")]
DrawerRef = Annotated[
    Label, Field(description="A drawer id, or a drawer name when wing and room are given.")
]
Status = Literal["duplicate", "supplement", "contradiction", "unrelated"]
LinkStatus = Literal["pending", "same", "different"]
Verdict = Literal["same", "different"]
Threshold = Annotated[
    float,
    Field(ge=0.0, le=1.0, allow_inf_nan=False, description="Cosine similarity from 0 to 1."),
]
Ctx = Context[Any, Any]
MaxClusters = Annotated[int, Field(ge=1, le=200, description="Show at most this many clusters.")]
Full = Annotated[
    bool,
    Field(description="Also answer the whole HTTP answer (`detail`): hashes, signals, etc."),
]
PageSize = Annotated[int, Field(ge=1, le=100, description="At most this many drawers a page.")]
Cursor = Annotated[
    str | None, Field(description="The next_cursor of the page before.", max_length=1000)
]


class EntityMentionsOut(BaseModel):
    """`GET /api/entities/{id}/mentions`, in an object: structured content is an object."""

    entity: str
    mentions: list[EntityMentionOut]


def _body(request: BaseModel) -> Json:
    """A request model as the JSON body its route receives, None values left out as an HTTP
    client leaves them out."""
    return request.model_dump(mode="json", exclude_none=True)


def _content(client: Client, drawer_id: str, caller: str | None) -> str | None:
    """A drawer's content; None once deleted (or when it is another agent's diary entry)."""
    try:
        content: str = client.drawer(drawer_id, caller=caller)["content"]
    except CastlegraphError as error:
        if error.code != ErrorCode.PALACE_DRAWER_NOT_FOUND:
            raise
        return None
    return content


class CastleTools:
    """One method per tool; the docstring is the description the model reads."""

    def __init__(self, client: Client) -> None:
        self._client = client

    @staticmethod
    def _caller(ctx: Ctx) -> str | None:
        """The agent the caller's bearer token names, when the call came to the service's `/mcp`
        (over stdio there is no request and no token): it sees only its own diary."""
        state = getattr(ctx.request_context.request, "state", None)
        return caller_agent(state) if state is not None else None

    # --- drawers ------------------------------------------------------------------------------

    def drawer_write(
        self,
        wing: Wing,
        room: Room,
        content: Annotated[str, Field(description="The memory, verbatim; never rewritten.")],
        name: Annotated[
            Label | None, Field(description="Optional identity of the drawer in its room.")
        ] = None,
        kind: Annotated[DrawerKind, Field(description="What sort of memory this is.")] = "manual",
        full: Full = False,
        *,
        ctx: Ctx,
    ) -> DrawerWritten:
        """Store a memory (a drawer) verbatim in a wing and room; answers its `id`.

        An exact copy already in the room is not stored again: `created` is false and the
        existing drawer's id comes back. A close copy is stored and linked; `similar` lists the
        drawers it resembles (kind exact, normalized or near). A named drawer is the same drawer
        when the name and content match; the same name with other content is refused
        (`palace::drawer_name_taken`): change a drawer with drawer_supersede.
        """
        with tool_errors():
            body = DrawerCreate(content=content, name=name, kind=kind)
            answer = self._client.write_drawer(wing, room, _body(body), caller=self._caller(ctx))
            return DrawerWritten.of(answer, full)

    def diary_write(
        self,
        agent: Annotated[Label, Field(description="Your agent name: the diary's owner.")],
        content: Annotated[str, Field(description="The diary entry, verbatim.")],
        wing: Annotated[Label, Field(description="Wing whose `diary` room holds it.")] = "diary",
        full: Full = False,
        *,
        ctx: Ctx,
    ) -> DrawerWritten:
        """Write an entry in an agent's diary (room `diary` of the wing); answers its `id`.

        Only the same agent's entries are compared: repeating an entry returns the existing one
        (`created` false); another agent's identical entry is a separate memory.
        """
        with tool_errors():
            body = DiaryCreate(agent=agent, content=content, wing=wing)
            answer = self._client.write_diary(_body(body), caller=self._caller(ctx))
            return DrawerWritten.of(answer, full)

    def drawer_read(self, drawer_id: DrawerId, *, ctx: Ctx) -> DrawerOut:
        """Read one drawer whole: its content, wing, room, name, kind, agent, provenance and
        versions (`valid_to` set once superseded; `supersedes` names the version before).
        """
        with tool_errors():
            answer = self._client.drawer(drawer_id, caller=self._caller(ctx))
            return DrawerOut.model_validate(answer)

    def drawer_list(
        self,
        wing: Wing,
        room: Room,
        limit: PageSize = 20,
        cursor: Cursor = None,
        *,
        ctx: Ctx,
    ) -> DrawerPage:
        """List the current drawers of one room, oldest first, whole (content included); a page
        at a time, `next_cursor` gives the next. Superseded and deleted drawers are not listed.
        """
        with tool_errors():
            page = self._client.room_drawers(wing, room, limit, cursor, caller=self._caller(ctx))
            return DrawerPage.model_validate(page)

    def drawer_search(
        self,
        wing: Wing,
        room: Room,
        words: Annotated[
            str, Field(description="Up to 8 words the drawers must all hold, any order, any case.")
        ],
        limit: PageSize = 20,
        *,
        ctx: Ctx,
    ) -> DrawerSearchOut:
        """Find the current drawers of one room whose text holds every given word, oldest
        first, whole (content included); `more` says more matched than `limit`. Words, not
        meaning: for drawers alike in meaning use find_duplicates.
        """
        with tool_errors():
            found = self._client.search_drawers(wing, room, words, limit, caller=self._caller(ctx))
            return DrawerSearchOut.model_validate(found)

    def drawer_supersede(
        self,
        drawer_id: DrawerId,
        content: Annotated[str, Field(description="The new text, verbatim.")],
        full: Full = False,
        *,
        ctx: Ctx,
    ) -> DrawerWritten:
        """Replace a current drawer's text with a new version: the old one is closed, not
        lost (`valid_to`), the new one keeps its wing, room and name and answers `superseded`
        naming the old id. The old drawer's duplicate verdicts are cleared. Use it to keep the
        better text of a duplicate pair, or to date a stale fact; how: read the resource
        castlegraph://agent-guide.
        """
        with tool_errors():
            body = _body(DrawerUpdate(content=content))
            answer = self._client.supersede_drawer(drawer_id, body, caller=self._caller(ctx))
            return DrawerWritten.of(answer, full)

    def drawer_delete(self, drawer_id: DrawerId, *, ctx: Ctx) -> DrawerDeleted:
        """Delete a drawer for good, with its similarity links, verdicts and mentions. Only for
        the copy of a duplicate pair you decided to drop (read the resource
        castlegraph://agent-guide); to change a text, use drawer_supersede, which keeps the
        old version.
        """
        with tool_errors():
            self._client.delete_drawer(drawer_id, caller=self._caller(ctx))
            return DrawerDeleted(deleted=drawer_id)

    # --- duplicates ---------------------------------------------------------------------------

    def drawer_similar_links(self, drawer_id: DrawerId, *, ctx: Ctx) -> DrawerDuplicatesOut:
        """One drawer's SIMILAR_TO links: the exact and near copies recorded in its room when
        it or they were written, with kind, similarity and side (`older`: the drawer
        resembles that earlier one). Not a search: to find pairs alike in meaning across the
        palace, use find_duplicates. How to judge a pair: read the resource
        castlegraph://agent-guide.
        """
        with tool_errors():
            answer = self._client.drawer_duplicates(drawer_id, caller=self._caller(ctx))
            return DrawerDuplicatesOut.model_validate(answer)

    def find_duplicates(
        self,
        wing: Annotated[Label | None, Field(description="Only this wing.")] = None,
        room: Annotated[Label | None, Field(description="Only this room (with wing).")] = None,
        threshold: Threshold = DEFAULT_THRESHOLD,
        max_clusters: MaxClusters = 20,
        *,
        ctx: Ctx,
    ) -> str:
        """The duplicate review queue: current drawers of the whole palace (or a wing, a room)
        alike in meaning (cosine similarity of their embeddings at or above the threshold),
        grouped into clusters; a cluster of 3+ usually means one topic spread over several
        memories. Pairs already judged with dedup_mark_checked are left out; drawers without
        an embedding cannot be compared. Read-only. Answers text: a `Cluster of N:` heading,
        then one `[score:S] "excerpt" (id) <-> "excerpt" (id)` line per pair. How to judge
        each pair: read the resource castlegraph://agent-guide.
        """
        caller = self._caller(ctx)
        with tool_errors():
            found = self._client.find_duplicates(wing, room, threshold, caller=caller)
            shown = shown_drawers(found, max_clusters)
            contents = {i: _content(self._client, i, caller) for i in shown}
        return duplicates_text(found, contents, scope_words(wing, room), max_clusters)

    def dedup_mark_checked(
        self,
        a: DrawerRef,
        b: DrawerRef,
        status: Annotated[Status, Field(description="Your verdict on the pair.")],
        wing: Annotated[Label | None, Field(description="Wing, when a or b is a name.")] = None,
        room: Annotated[Label | None, Field(description="Room, when a or b is a name.")] = None,
        *,
        ctx: Ctx,
    ) -> VerdictOut:
        """Record your verdict on a pair of drawers so find_duplicates stops proposing it:
        duplicate (the same memory twice), supplement (each adds something), contradiction
        (they disagree), unrelated. Replaces an earlier verdict on the pair; superseding or
        deleting either drawer clears it. How to decide, and what to do before marking:
        read the resource castlegraph://agent-guide.
        """
        with tool_errors():
            body = VerdictCreate(a=a, b=b, status=status, wing=wing, room=room)
            answer = self._client.mark_checked(_body(body), caller=self._caller(ctx))
            return VerdictOut.model_validate(answer)

    # --- entities -----------------------------------------------------------------------------

    def post_mentions(
        self,
        mentions: Annotated[
            list[MentionIn],
            Field(
                description="Mentions in order: each a drawer id, the name as written and its "
                "kind (person, tool, place, ... or `other`); optional extractor and origin."
            ),
        ],
        full: Full = False,
        *,
        ctx: Ctx,
    ) -> MentionsPosted:
        """Record that drawers mention entities: each name is resolved to an existing entity
        (rule exact, normalized, alias or typo) or creates one (`created`, rule `new`), and
        linked to its drawer. Nothing is ever merged: a name that may be another entity is
        linked for review (`possibly_same_as`; settle with settle_review_link). One
        transaction: a bad mention refuses the whole batch.
        """
        with tool_errors():
            body = _body(MentionBatchCreate(mentions=mentions))
            answer = self._client.post_mentions(body, caller=self._caller(ctx))
            return MentionsPosted.of(answer, full)

    def resolve_entity(
        self,
        name: Annotated[Label, Field(description="The name as written, e.g. `Ada Lovelace`.")],
        kind: Annotated[Label, Field(description="person, tool, place, ... or `other`.")],
    ) -> ResolveOut:
        """Dry run of entity resolution: would (name, kind) be an existing entity (decision
        `same`, with the rule that fired: exact, normalized, alias or typo) or a new one
        (`new`, with the entities it resembles, for review)? Shows the evidence; writes
        nothing (post_mentions records mentions).
        """
        with tool_errors():
            return ResolveOut.model_validate(self._client.resolve(name, kind))

    def entity_mentions(self, entity_id: EntityId, *, ctx: Ctx) -> EntityMentionsOut:
        """Where an entity is mentioned, newest first: each drawer id with the name as
        observed there, the rule that resolved it, and the provenance (extractor, origin).
        """
        with tool_errors():
            found = self._client.entity_mentions(entity_id, caller=self._caller(ctx))
            return EntityMentionsOut(
                entity=entity_id, mentions=[EntityMentionOut.model_validate(m) for m in found]
            )

    def entity_candidates(self, entity_id: EntityId) -> CandidatesOut:
        """Pending POSSIBLY_SAME_AS review links of one entity: entities with a similar name
        that resolution would not merge on its own (short names, a digit or a real word
        differs, several candidates). Each has a similarity and a side (older or newer).
        Settle each with settle_review_link; how to judge: read the resource
        castlegraph://agent-guide.
        """
        with tool_errors():
            found = self._client.entity_candidates(entity_id)
            return CandidatesOut(
                entity=entity_id, candidates=[CandidateOut.model_validate(c) for c in found]
            )

    def review_links(
        self,
        status: Annotated[
            LinkStatus, Field(description="pending (to review), or same / different (settled).")
        ] = "pending",
        kind: Annotated[Label | None, Field(description="Only links with this kind.")] = None,
        reason: Annotated[
            Label | None,
            Field(description="Only this reason, e.g. known_words, digit_edit, nickname."),
        ] = None,
        cursor: Annotated[
            str | None, Field(description="The next_cursor of the page before.", max_length=400)
        ] = None,
    ) -> ReviewLinkPage:
        """The entity review queue: review links between entities of the whole palace, best
        first (similarity, then ids), each with both entities whole: `a` the older, `b` the
        newer. The pending ones (the default) are exactly the entities with links waiting for
        a verdict (settle_review_link); settled ones show what was decided. Read-only; a page
        at a time, `next_cursor` gives the next. How to judge a pair: read the resource
        castlegraph://agent-guide.
        """
        with tool_errors():
            page = self._client.review_links(status, kind, reason, cursor)
            return ReviewLinkPage.model_validate(page)

    def settle_review_link(
        self,
        entity_id: EntityId,
        other_id: Annotated[Label, Field(description="The other entity of the link.")],
        verdict: Annotated[Verdict, Field(description="same thing, or different things.")],
    ) -> SettledOut:
        """Settle the review link between two entities (either order). `same`: the newer
        entity's name becomes an alias of the older (returned), so later mentions converge
        on it; nothing is merged. `different`: the pair is never proposed again; on a link
        settled `same` it undoes it (the alias goes, `undone` says `same`). How to judge:
        read the resource castlegraph://agent-guide.
        """
        with tool_errors():
            body = _body(ReviewVerdictCreate(verdict=verdict))
            return SettledOut.model_validate(
                self._client.settle_review_link(entity_id, other_id, body)
            )

    def add_alias(
        self,
        entity_id: EntityId,
        alias: Annotated[Label, Field(description="Another spelling of the entity's name.")],
    ) -> EntityOut:
        """Record another spelling of an entity (an abbreviation, a transliteration) that no
        other entity has. Nothing is merged and the canonical name is never rewritten; later
        mentions of the spelling resolve to this entity by rule `alias`. The name itself or a
        known alias changes nothing. A spelling of another entity is refused
        (`graph::alias_taken`, naming it): to say two entities are one, settle their review
        link with settle_review_link `same`. When to use it: read the resource
        castlegraph://agent-guide.
        """
        with tool_errors():
            answer = self._client.add_alias(entity_id, _body(AliasCreate(alias=alias)))
            return EntityOut.model_validate(answer)

    def hygiene(self, *, ctx: Ctx) -> str:
        """What waits for review in the whole palace, as counts: duplicate pairs at the default
        threshold (find_duplicates lists them), pending possibly_same_as links between
        entities (review_links lists them), and drawers without an embedding (find_duplicates
        cannot compare them). Read-only; text. Start a review here.
        """
        with tool_errors():
            return hygiene_text(self._client.hygiene(caller=self._caller(ctx)))
