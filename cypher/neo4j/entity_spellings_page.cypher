// One page of every entity's spellings after a cursor: the entity id, in its index's order.
MATCH (e:Entity)
WHERE e.id > $after
RETURN e.id AS id, e.key AS key, e.alias_keys AS alias_keys, e.kind AS kind, e.name AS name,
       e.aliases AS aliases, e.created_at AS created_at, e.same_as AS same_as, e.id AS cursor
ORDER BY e.id
LIMIT $limit
