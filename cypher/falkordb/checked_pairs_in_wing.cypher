// The pairs with a verdict that touch one wing's drawers, from the scope index by its
// wing.
MATCH (d:Drawer)-[:DEDUP_CHECKED]-(b:Drawer)
WHERE d.wing = $wing AND d.room IS NOT NULL
// A verdict is stored from the lower id to the higher (`graph.review.duplicates.record_verdict`):
// each pair once, as the palace-wide statement returns it.
WITH CASE WHEN d.id < b.id THEN d.id ELSE b.id END AS a, CASE WHEN d.id < b.id THEN b.id ELSE d.id END AS b
RETURN DISTINCT a, b
