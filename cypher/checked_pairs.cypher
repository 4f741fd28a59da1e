// Every pair of drawers with a verdict (design §6), for a palace-wide duplicate search.
// plan: DirectedRelationshipTypeScan — the whole palace asked for
MATCH (a:Drawer)-[:DEDUP_CHECKED]->(b:Drawer)
RETURN a.id AS a, b.id AS b
