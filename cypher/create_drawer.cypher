// The drawer sequence (`graph.drawer_index`): every drawer created or closed here carries the
// new value, and the counter stays locked to commit, so a committed value means every lower
// one is committed too.
MERGE (c:Meta {name: 'drawer_seq'})
ON CREATE SET c.value = 0, c.epoch = randomUUID()
SET c.value = c.value + 1
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
RETURN linked, c.value AS seq, c.epoch AS epoch
