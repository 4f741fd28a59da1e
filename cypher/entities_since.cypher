// The entities created or respelled after the sequence value an in-memory index has seen.
MATCH (e:Entity)
WHERE e.seq > $after AND e.seq <= $upto
RETURN e.id AS id, e.key AS key, e.alias_keys AS alias_keys, e.kind AS kind, e.name AS name,
       e.aliases AS aliases, e.created_at AS created_at, e.same_as AS same_as,
       e.unspelled AS unspelled
