// The full-text index is eventually consistent (`schema/neo4j/21_entity_dkeys.cypher`): the
// probe first waits for the updates committed before it.
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
CALL db.index.fulltext.queryNodes('entity_dkeys', $probes_query, {limit: $limit})
YIELD node
WITH DISTINCT node AS e
WHERE $kinds IS NULL OR e.kind IN $kinds
RETURN e {.id, .name, .kind, .key, .aliases, .alias_keys, .created_at, .same_as} AS entity
