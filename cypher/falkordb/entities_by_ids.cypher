// Columns, not a map: the client parses a map's keys again for every row.
UNWIND split($ids, $separator) AS id
MATCH (e:Entity {id: id})
RETURN e.id AS id, e.name AS name, e.kind AS kind, e.key AS key, e.aliases AS aliases,
       e.alias_keys AS alias_keys, e.created_at AS created_at, e.same_as AS same_as
