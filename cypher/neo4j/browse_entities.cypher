// One page of every entity after a cursor, by entity id, which its unique index reads in order.
MATCH (e:Entity)
WHERE e.id > $after
RETURN e.id AS id, e.name AS name, e.kind AS kind, e.key AS key, e.aliases AS aliases,
       e.alias_keys AS alias_keys, e.created_at AS created_at, e.same_as AS same_as,
       e.id AS cursor
ORDER BY cursor
LIMIT $limit
