"""Entities (design §5.6): find them by name, read one, where it is mentioned."""

from castlegraph.api.models.entities import EntityOut, EntityPage
from castlegraph.api.models.mentions import EntityMentionOut
from castlegraph.api.service.runtime import Runtime
from castlegraph.graph.cursors import decode_cursor, encode_cursor
from castlegraph.graph.entities import entity_curation as curation
from castlegraph.resolver.entity_keys import normalize_kind
from castlegraph.resolver.errors import EmptyLabel

MENTIONS_LIMIT = curation.MENTIONS_LIMIT


class Entities:
    def __init__(self, runtime: Runtime) -> None:
        """The runtime gives the store, and the in-memory entity index once it exists."""
        self._runtime = runtime

    def find(self, name: str, kind: str | None, limit: int, cursor: str | None) -> EntityPage:
        """Entities whose name or an alias has the same key as `name`, by id."""
        if not name.strip():
            raise EmptyLabel("name", "name is blank")
        wanted_kind = normalize_kind(kind) if kind is not None else None
        runtime = self._runtime
        found = curation.find_entities(runtime.store, name, wanted_kind, runtime.entity_index)
        after = decode_cursor(cursor, 1)[0] if cursor else None
        page = [e for e in found if after is None or e.view.id > after][: limit + 1]
        more = len(page) > limit
        page = page[:limit]
        next_cursor = encode_cursor(page[-1].view.id) if more and page else None
        return EntityPage.of(page, next_cursor)

    def get(self, entity_id: str) -> EntityOut:
        return EntityOut.of(curation.get_entity(self._runtime.store, entity_id))

    def mentions(
        self, entity_id: str, caller: str | None, limit: int = MENTIONS_LIMIT
    ) -> list[EntityMentionOut]:
        """Where the entity is mentioned, newest first, with each observation's provenance (not
        in another agent's diary entries, for an agent's token)."""
        found = curation.entity_mentions(self._runtime.store, entity_id, limit, viewer=caller)
        return [EntityMentionOut.of(m) for m in found]
