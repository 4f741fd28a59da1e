// The drawer sequence (`graph.drawer_index`): every drawer created or closed here carries the
// new value, and the counter stays locked to commit, so a committed value means every lower
// one is committed too.
MERGE (c:Meta {name: 'drawer_seq'})
ON CREATE SET c.value = 0, c.epoch = randomUUID()
SET c.value = c.value + 1
WITH c.value AS seq
MATCH (old:Drawer {id: $supersedes})
// A closed drawer is never a candidate again: it leaves the vector and anchor-term indexes.
SET old.valid_to = $now, old.seq = seq, old.embedding = null, old.terms = null, old.terms_text = null
WITH old, seq
// Its verdicts and pending duplicate pairs go: a rewrite may look like something anew.
OPTIONAL MATCH (old)-[verdict:DEDUP_CHECKED|DUPLICATE_CANDIDATE]-(:Drawer)
DELETE verdict
WITH seq, count(*) AS cleared
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
