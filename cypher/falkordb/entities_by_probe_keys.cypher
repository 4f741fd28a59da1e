UNWIND $probes AS probe
MATCH (e:Entity)
WHERE probe IN e.dkeys
WITH DISTINCT e
RETURN e {.id, .name, .kind, .key, .aliases, .alias_keys, .created_at, .same_as} AS entity
