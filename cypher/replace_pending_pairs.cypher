// Replace a drawer's pending duplicate pairs with those found for the vector it is about to
// store (graph/duplicate_pairs.py), in the same write unit, just before it; a closed drawer
// keeps none.
MATCH (d:Drawer {id: $id})
OPTIONAL MATCH (d)-[old:DUPLICATE_CANDIDATE]-(:Drawer)
DELETE old
WITH DISTINCT d
WHERE d.valid_to IS NULL
UNWIND $pairs AS pair
MATCH (a:Drawer {id: pair.a})
MATCH (b:Drawer {id: pair.b})
CREATE (a)-[c:DUPLICATE_CANDIDATE]->(b)
SET c.score = pair.score, c.floor = $floor, c.created_at = $now
RETURN count(c) AS pairs
