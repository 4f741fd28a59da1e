MATCH (old:Drawer {id: $supersedes})
// A closed drawer is never a candidate again: it leaves the vector and anchor-term indexes.
SET old.valid_to = $now, old.embedding = null, old.terms = null, old.terms_text = null
WITH old
// Its verdicts and pending duplicate pairs go: a rewrite may look like something anew.
OPTIONAL MATCH (old)-[verdict:DEDUP_CHECKED|DUPLICATE_CANDIDATE]-(:Drawer)
DELETE verdict
WITH count(*) AS cleared
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
