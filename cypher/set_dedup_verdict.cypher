// plan: CartesianProduct — two unique-index seeks of one drawer each
// A verdict replaces the pair's earlier one; readers leave the pair out of the pending ones
// (design §6).
MATCH (a:Drawer {id: $a})
MATCH (b:Drawer {id: $b})
OPTIONAL MATCH (a)-[old:DEDUP_CHECKED]-(b)
DELETE old
WITH DISTINCT a, b
CREATE (a)-[v:DEDUP_CHECKED]->(b)
SET v.status = $status, v.checked_at = $now
RETURN v.status AS status
