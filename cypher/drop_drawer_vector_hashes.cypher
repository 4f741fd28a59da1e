// Up to $limit drawers leave their vector group, before the groups are computed again.
MATCH (d:Drawer)
WHERE d.vector_hash IS NOT NULL
WITH d LIMIT $limit
SET d.vector_hash = null
RETURN count(*) AS dropped
