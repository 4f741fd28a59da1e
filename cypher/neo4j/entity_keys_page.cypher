// One page of every entity after a cursor (the entity id, as `entities_page`), each saying
// whether it lacks a key the service derives (`graph.migration_steps.fill_entity_keys`).
MATCH (e:Entity)
WHERE e.id > $after
RETURN e.id AS id, e.name AS name, e.kind AS kind, e.aliases AS aliases, e.id AS cursor,
       e.key IS NULL OR e.alias_keys IS NULL OR e.dkeys_text IS NULL AS keyless
ORDER BY e.id
LIMIT $limit
