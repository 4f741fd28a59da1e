// The Neo4j form of `../falkordb/checked_pairs_in_room.cypher`: the hint keeps the scope
// index's seek whatever the statistics say (an empty type made the planner scan DEDUP_CHECKED).
MATCH (d:Drawer)-[:DEDUP_CHECKED]-(b:Drawer)
USING INDEX d:Drawer(wing, room)
WHERE d.wing = $wing AND d.room = $room
// A verdict is stored from the lower id to the higher (`graph.review.duplicates.record_verdict`):
// each pair once, as the palace-wide statement returns it.
WITH CASE WHEN d.id < b.id THEN d.id ELSE b.id END AS a, CASE WHEN d.id < b.id THEN b.id ELSE d.id END AS b
RETURN DISTINCT a, b
