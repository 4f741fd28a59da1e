MERGE (w:Wing {name: $wing})
MERGE (r:Room {wing: $wing, name: $room})
MERGE (w)-[:HAS_ROOM]->(r)
CREATE (r)-[:HAS_DRAWER]->(d:Drawer)
SET d += $props, d.terms = CASE $terms WHEN '' THEN [] ELSE split($terms, ' ') END
WITH d
UNWIND $links AS link
MATCH (other:Drawer {id: link.other})
CREATE (d)-[s:SIMILAR_TO]->(other)
SET s += link.evidence
RETURN count(s) AS linked
