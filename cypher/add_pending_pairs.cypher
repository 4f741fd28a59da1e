// Pending duplicate pairs found by a whole pass over the vector index (migration 8).
UNWIND $pairs AS pair
MATCH (a:Drawer {id: pair.a})
MATCH (b:Drawer {id: pair.b})
WHERE a.valid_to IS NULL AND b.valid_to IS NULL
MERGE (a)-[c:DUPLICATE_CANDIDATE]->(b)
SET c.score = pair.score, c.floor = $floor, c.created_at = $now
RETURN count(c) AS added
