// One page of the entities of a kind after a cursor, by entity id: the indexes on the entity id
// and on (kind, name) find them, never a scan over every entity.
MATCH (e:Entity)
WHERE e.kind = $kind AND e.id > $after
RETURN e.id AS id, e.name AS name, e.kind AS kind, e.key AS key, e.aliases AS aliases,
       e.alias_keys AS alias_keys, e.created_at AS created_at, e.same_as AS same_as,
       e.id AS cursor
ORDER BY cursor
LIMIT $limit
