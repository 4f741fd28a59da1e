"""Entities (design §5.6): find them by name, read one, where it is mentioned."""

from castlegraph.api.models.entities import EntityOut, EntityPage
from castlegraph.api.models.mentions import EntityMentionOut
from castlegraph.api.service.runtime import Runtime
from castlegraph.graph.entities import entity_curation as curation
from castlegraph.graph.entities.browse import entities_page
from castlegraph.resolver.entity_keys import normalize_kind
from castlegraph.resolver.errors import EmptyLabel

MENTIONS_LIMIT = curation.MENTIONS_LIMIT


class Entities:
    def __init__(self, runtime: Runtime) -> None:
        """The runtime gives the store, and the in-memory entity index once it exists."""
        self._runtime = runtime

    def find(
        self, name: str | None, kind: str | None, limit: int, cursor: str | None
    ) -> EntityPage:
        """Entities a page at a time: those spelled like `name`, or of `kind`, or all."""
        if name is not None and not name.strip():
            raise EmptyLabel("name", "name is blank")
        wanted_kind = normalize_kind(kind) if kind is not None else None
        runtime = self._runtime
        found, next_cursor = entities_page(
            runtime.store,
            name=name,
            kind=wanted_kind,
            limit=limit,
            cursor=cursor,
            memory=runtime.entity_index,
        )
        return EntityPage.of(found, next_cursor)

    def get(self, entity_id: str) -> EntityOut:
        return EntityOut.of(curation.get_entity(self._runtime.store, entity_id))

    def mentions(
        self, entity_id: str, caller: str | None, limit: int = MENTIONS_LIMIT
    ) -> list[EntityMentionOut]:
        """Where the entity is mentioned, newest first, with each observation's provenance (not
        in another agent's diary entries, for an agent's token)."""
        found = curation.entity_mentions(self._runtime.store, entity_id, limit, viewer=caller)
        return [EntityMentionOut.of(m) for m in found]
