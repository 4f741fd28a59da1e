// One page of every entity after a cursor: the internal node id, which a label-and-id range
// scan walks in order (SKIP would walk every earlier entity again on each page).
MATCH (e:Entity)
WHERE id(e) > $after
WITH e
LIMIT $limit
RETURN e {.id, .key, .alias_keys, .name, .kind, .aliases} AS entity, id(e) AS cursor
