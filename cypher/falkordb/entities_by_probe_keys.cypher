UNWIND split($probes, $separator) AS probe
MATCH (e:Entity)
WHERE probe IN e.dkeys AND ($kinds IS NULL OR e.kind IN $kinds)
WITH e, collect(probe) AS probes
RETURN e {.id, .name, .kind, .key, .aliases, .alias_keys, .created_at, .same_as} AS entity, probes
