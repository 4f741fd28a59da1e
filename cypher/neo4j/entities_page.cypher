// One page of every entity after a cursor: the entity id, in the order of its unique index.
MATCH (e:Entity)
WHERE e.id > $after
RETURN e {.id, .key, .alias_keys, .name, .kind, .aliases} AS entity,
       e.id AS cursor
ORDER BY e.id
LIMIT $limit
