// One page of the entities of a kind after a cursor (the internal node id, as
// `browse_entities`): the index on `kind` finds them, sorted by node id since the index
// answers in no set order; a page costs a sort of the kind's entities past the cursor.
MATCH (e:Entity)
WHERE e.kind = $kind AND id(e) > $after
RETURN e.id AS id, e.name AS name, e.kind AS kind, e.key AS key, e.aliases AS aliases,
       e.alias_keys AS alias_keys, e.created_at AS created_at, e.same_as AS same_as,
       id(e) AS cursor
ORDER BY cursor
LIMIT $limit
