// A verdict replaces the pair's earlier one, and the pair is no longer pending (design §6).
MATCH (a:Drawer {id: $a})
MATCH (b:Drawer {id: $b})
OPTIONAL MATCH (a)-[old:DEDUP_CHECKED|DUPLICATE_CANDIDATE]-(b)
DELETE old
WITH DISTINCT a, b
CREATE (a)-[v:DEDUP_CHECKED]->(b)
SET v.status = $status, v.checked_at = $now
RETURN v.status AS status
