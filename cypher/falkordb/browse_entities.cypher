// One page of every entity after a cursor: the internal node id, which a label-and-id range
// scan walks in order. Not the entity id: a range over FalkorDB's string index reads every
// entity past the cursor before the LIMIT applies (seconds a page at 100 k entities).
MATCH (e:Entity)
WHERE id(e) > $after
WITH e
LIMIT $limit
RETURN e.id AS id, e.name AS name, e.kind AS kind, e.key AS key, e.aliases AS aliases,
       e.alias_keys AS alias_keys, e.created_at AS created_at, e.same_as AS same_as,
       id(e) AS cursor
