// One page of every entity's spellings after a cursor (the internal node id, as entities_page).
MATCH (e:Entity)
WHERE id(e) > $after
WITH e
LIMIT $limit
RETURN e.id AS id, e.key AS key, e.alias_keys AS alias_keys, e.kind AS kind, e.name AS name,
       e.aliases AS aliases, e.created_at AS created_at, e.same_as AS same_as, id(e) AS cursor
