MATCH (d:Drawer)
WHERE d.valid_to IS NULL AND d.embedding IS NULL
RETURN d.id AS id
LIMIT $limit
