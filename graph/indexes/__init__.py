"""The in-memory candidate indexes: entities and drawers held in the service's memory.

`entity_index` (`EntityIndex`) and `drawer_index` (`DrawerIndex`) answer the candidate searches
that the database's own indexes answered before, kept exact by a sequence (`sequenced_index`);
`key_segments` (with its long runs by kind, `kind_runs`), `row_spellings` and `known_drawers`
hold their data, and the keys they store
and probe come from `resolver.entity_search_keys`. This is the room a compiled core can
replace, so its interface stays narrow and typed: it may import `resolver`, `graph.records`,
`graph.errors` and, of the backends, only the `store` protocol and `queries`' constants —
never a driver, a backend implementation or a use-case room.
"""
