// plan: NodeByLabelScan — a migration step: each entity read once, $limit a page
MATCH (e:Entity)
WHERE e.seq IS NULL
RETURN e.id AS id
LIMIT $limit
