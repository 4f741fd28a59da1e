// One page of every entity after a cursor, by entity id: the unique index on `id` finds them
// (FalkorDB sorts what its range scan found; Neo4j reads the index in order).
MATCH (e:Entity)
WHERE e.id > $after
RETURN e.id AS id, e.name AS name, e.kind AS kind, e.key AS key, e.aliases AS aliases,
       e.alias_keys AS alias_keys, e.created_at AS created_at, e.same_as AS same_as
ORDER BY id
LIMIT $limit
