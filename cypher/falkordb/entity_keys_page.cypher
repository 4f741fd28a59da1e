// One page of every entity after a cursor (the internal node id, as `entities_page`), each
// saying whether it lacks a key the service derives (`graph.migration_steps.fill_entity_keys`).
MATCH (e:Entity)
WHERE id(e) > $after
WITH e
LIMIT $limit
RETURN e.id AS id, e.name AS name, e.kind AS kind, e.aliases AS aliases, id(e) AS cursor,
       e.key IS NULL OR e.alias_keys IS NULL OR e.dkeys IS NULL AS keyless
