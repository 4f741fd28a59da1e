// One page of every entity, in id order from the unique index on :Entity(id).
MATCH (e:Entity)
WHERE e.id > $after
RETURN e {.id, .name, .kind, .aliases, .dkeys_text} AS entity
ORDER BY e.id
LIMIT $limit
