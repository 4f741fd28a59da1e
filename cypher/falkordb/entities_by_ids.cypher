UNWIND split($ids, $separator) AS id
MATCH (e:Entity {id: id})
RETURN e {.id, .name, .kind, .key, .aliases, .alias_keys, .created_at, .same_as} AS entity
