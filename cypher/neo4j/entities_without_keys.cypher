MATCH (e:Entity)
WHERE e.key IS NULL OR e.alias_keys IS NULL OR e.dkeys_text IS NULL
RETURN e.id AS id, e.name AS name, e.kind AS kind, e.aliases AS aliases
LIMIT $limit
