// Up to $limit pending duplicate pairs removed, before they are computed again (migration 8).
MATCH (:Drawer)-[c:DUPLICATE_CANDIDATE]->(:Drawer)
WITH c LIMIT $limit
DELETE c
RETURN count(*) AS dropped
