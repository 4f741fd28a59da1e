// `create_drawer` for a write that decided without reading the database (design §4.5): its
// candidates came from the in-memory index and the drawers the service knows, which are exact
// only while the drawer sequence stands where that index has seen it ($seen_*). So the drawer
// is created only if it still does, and if the room holds no current drawer with the write's
// content hash or fingerprint (those candidates the in-memory index does not keep: the write
// reads them then). Otherwise nothing is written and `written` is false: the write reads its
// candidates and comes again. `written_by` tells the two apart: a token of this call alone.
MATCH (c:Meta {name: 'drawer_seq'})
WHERE c.epoch = $seen_epoch AND c.value = $seen_value AND coalesce(c.deletes, 0) = $seen_deletes
OPTIONAL MATCH (copy:Drawer {content_hash: $content_hash})
WHERE copy.wing = $wing AND copy.room = $room AND copy.valid_to IS NULL
WITH c, count(copy) AS copies
OPTIONAL MATCH (twin:Drawer {fingerprint: $fingerprint})
WHERE twin.wing = $wing AND twin.room = $room AND twin.valid_to IS NULL
WITH c, copies, count(twin) AS twins
WHERE copies = 0 AND twins = 0
SET c.value = c.value + 1, c.written_by = $token
WITH c.value AS seq
MERGE (w:Wing {name: $wing})
MERGE (r:Room {wing: $wing, name: $room})
MERGE (w)-[:HAS_ROOM]->(r)
CREATE (r)-[:HAS_DRAWER]->(d:Drawer)
SET d += $props, d.seq = seq, d.terms = CASE $terms WHEN '' THEN [] ELSE split($terms, ' ') END
WITH d
UNWIND $links AS link
MATCH (other:Drawer {id: link.other})
CREATE (d)-[s:SIMILAR_TO]->(other)
SET s += link.evidence
WITH count(s) AS linked
MATCH (c:Meta {name: 'drawer_seq'})
RETURN linked, c.value AS seq, c.epoch AS epoch, c.written_by = $token AS written
