MATCH (e:Entity)
WHERE e.seq IS NULL
RETURN e.id AS id
LIMIT $limit
