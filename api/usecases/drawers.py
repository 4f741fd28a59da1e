"""Drawers (design §4.4, §11): write, diary, supersede, read, list, delete, their duplicates.

Every call passes the caller's agent to the graph layer as the viewer (design §8.1): another
agent's diary entry is never compared with a write, listed, linked or named, and by id it is
`palace::drawer_not_found`, the answer for an id that does not exist.
"""

from castlegraph.api.errors import InvalidInput
from castlegraph.api.models.drawers import (
    DiaryCreate,
    DrawerCreate,
    DrawerDuplicatesOut,
    DrawerOut,
    DrawerPage,
    DrawerSearchOut,
    DrawerUpdate,
    DrawerWriteOut,
    search_words,
)
from castlegraph.api.service.agents import named_agent
from castlegraph.api.service.limits import check_content, check_path_segment
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.usecases.answers import Changed
from castlegraph.graph.drawers import palace
from castlegraph.graph.drawers.drawer_request import NewDrawer
from castlegraph.graph.drawers.search import search_room
from castlegraph.graph.drawers.visibility import DIARY_KIND
from castlegraph.graph.records import WriteOutcome

DIARY_ROOM = "diary"


class Drawers:
    def __init__(self, runtime: Runtime) -> None:
        """The runtime gives the store and the drawer index once the database is up, and the
        deduplication policy the settings fixed."""
        self._runtime = runtime
        self._policy = runtime.policy

    def _written(self, outcome: WriteOutcome) -> Changed:
        """A new drawer is queued for its embedding; `superseded` is said only when it was."""
        if outcome.created:
            self._runtime.written(outcome.drawer.id)
        body = DrawerWriteOut.of(outcome).model_dump(mode="json", exclude_none=False)
        if outcome.superseded is None:
            body.pop("superseded")
        return Changed(body, outcome.created)

    def write(self, wing: str, room: str, body: DrawerCreate, caller: str | None) -> Changed:
        """An agent's token names only its own agent, on a drawer of any kind (design §8.1): one
        naming another is refused, and a `diary` drawer naming none is its. A diary entry, here
        as in `write_diary`, is compared only with its agent's own diary entries."""
        agent = named_agent(body.agent, caller)
        if caller is not None and body.kind == DIARY_KIND:
            agent = caller
        new = NewDrawer(
            wing=check_path_segment("wing", wing),
            room=check_path_segment("room", room),
            content=check_content(body.content),
            name=body.name,
            kind=body.kind,
            agent=agent,
            source_uri=body.source_uri,
            compare_same_agent_only=body.kind == DIARY_KIND and agent is not None,
            viewer=caller,
        )
        runtime = self._runtime
        outcome = palace.write_drawer(
            runtime.store, new, self._policy, supersede=body.supersede, memory=runtime.drawer_index
        )
        return self._written(outcome)

    def write_diary(self, body: DiaryCreate, caller: str | None) -> Changed:
        """A diary entry is compared only with the same agent's entries of the wing's diary
        room. When the caller's token names an agent, that is the only agent it may write as."""
        named_agent(body.agent, caller)
        new = NewDrawer(
            wing=check_path_segment("wing", body.wing),
            room=DIARY_ROOM,
            content=check_content(body.content),
            kind="diary",
            agent=check_path_segment("agent", body.agent),
            compare_same_agent_only=True,
            viewer=caller,
        )
        runtime = self._runtime
        outcome = palace.write_drawer(runtime.store, new, self._policy, memory=runtime.drawer_index)
        return self._written(outcome)

    def supersede(self, drawer_id: str, body: DrawerUpdate, caller: str | None) -> Changed:
        runtime = self._runtime
        outcome = palace.supersede_drawer(
            runtime.store,
            drawer_id,
            check_content(body.content),
            self._policy,
            viewer=caller,
            memory=runtime.drawer_index,
        )
        return self._written(outcome)

    def get(self, drawer_id: str, caller: str | None) -> DrawerOut:
        return DrawerOut.of(palace.get_drawer(self._runtime.store, drawer_id, viewer=caller))

    def delete(self, drawer_id: str, caller: str | None) -> None:
        runtime = self._runtime
        palace.delete_drawer(runtime.store, drawer_id, viewer=caller, memory=runtime.drawer_index)

    def duplicates(self, drawer_id: str, caller: str | None) -> DrawerDuplicatesOut:
        """Its SIMILAR_TO links."""
        similar = palace.similar_drawers(self._runtime.store, drawer_id, viewer=caller)
        return DrawerDuplicatesOut.of(drawer_id, similar)

    def delete_similar(self, drawer_id: str, other_id: str, caller: str | None) -> None:
        palace.delete_similar(self._runtime.store, drawer_id, other_id, viewer=caller)

    def list_room(
        self, wing: str, room: str, limit: int, cursor: str | None, caller: str | None
    ) -> DrawerPage:
        """Current drawers, oldest first (another agent's diary entries are not shown)."""
        page, next_cursor = palace.list_room(
            self._runtime.store,
            check_path_segment("wing", wing),
            check_path_segment("room", room),
            limit,
            cursor,
            viewer=caller,
        )
        return DrawerPage.of(page, next_cursor)

    def search(
        self, wing: str, room: str, text: str, limit: int, caller: str | None
    ) -> DrawerSearchOut:
        """A room's current drawers holding every word of `text`, oldest first."""
        try:
            words = search_words(text)
        except ValueError as error:
            raise InvalidInput(str(error), {"field": "q"}) from error
        found, more = search_room(
            self._runtime.store,
            check_path_segment("wing", wing),
            check_path_segment("room", room),
            words,
            limit,
            viewer=caller,
        )
        return DrawerSearchOut.of(found, more)
