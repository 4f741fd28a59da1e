// plan: CartesianProduct — the counter node and index seeks of the batch's own drawers, one row each
// One batch of drawer writes (design §4.3, §4.4) in one statement, so it is stored whole or
// not at all: close the drawers the batch supersedes (none: one row of null, which every
// clause below passes over), make sure each room exists, create the drawers, then link them
// (after the creates: a link may point at a drawer of the same batch).
// The drawer sequence (`graph.drawer_index`): every drawer created or closed here carries the
// new value, and the counter stays locked to commit, so a committed value means every lower
// one is committed too.
MERGE (c:Meta {name: 'drawer_seq'})
MERGE (c)-[n:SEQUENCE]->(c)
ON CREATE SET n.value = 0, n.epoch = randomUUID()
SET n.value = n.value + 1
WITH n.value AS seq
OPTIONAL MATCH (old:Drawer)
WHERE old.id IN $closing_ids
// A closed drawer is never a candidate again: it leaves the vector and anchor-term indexes.
SET old.valid_to = [c IN $closing WHERE c.id = old.id | c.now][0], old.seq = seq, old.embedding = null, old.unembedded = null, old.vector_hash = null,
  old.terms = null, old.terms_text = null
WITH old, seq
// Its verdicts go, and it leaves its vector group (its pending duplicate pairs): a rewrite
// may look like something anew.
OPTIONAL MATCH (old)-[verdict:DEDUP_CHECKED]-(:Drawer)
DELETE verdict
WITH seq, count(*) AS cleared
UNWIND $rooms AS place
MERGE (w:Wing {name: place.wing})
MERGE (r:Room {wing: place.wing, name: place.room})
MERGE (w)-[:HAS_ROOM]->(r)
WITH seq, count(r) AS rooms
UNWIND $drawers AS item
MATCH (r:Room {wing: item.wing, name: item.room})
// Its index terms come as one string (design §4.5): the client quotes one string, not 176.
// Set, not written in the CREATE as `create_drawer` writes one drawer's: 21 map lookups per
// item cost a batch of 25 more (~0.45 ms) than the set costs it once (~0.35 ms at 100 k).
CREATE (r)-[:HAS_DRAWER]->(d:Drawer)
SET d += item.props, d.seq = seq, d.unembedded = true, d.terms = CASE item.terms WHEN '' THEN [] ELSE split(item.terms, ' ') END
WITH count(d) AS created
UNWIND $links AS link
MATCH (new:Drawer {id: link.from})
MATCH (other:Drawer {id: link.to})
CREATE (new)-[s:SIMILAR_TO]->(other)
SET s += link.evidence
WITH count(s) AS linked
MATCH (:Meta {name: 'drawer_seq'})-[n:SEQUENCE]->()
WITH linked, n.value AS seq, n.epoch AS epoch
// A job's batch saves the job's progress here, as `save_job_progress` does (its lock first, then
// only while $owner's $claim holds it), so the batch and its progress are one write: a crash
// leaves both or neither. A write of no job ($id null) matches none and sets nothing.
OPTIONAL MATCH (j:Job {id: $id})
FOREACH (locked IN CASE WHEN j IS NULL THEN [] ELSE [j] END | SET locked.write_lock = true)
WITH linked, seq, epoch, j
WITH linked, seq, epoch, j, coalesce(j.owner = $owner AND j.claim = $claim, false) AS held
FOREACH (mine IN CASE WHEN held THEN [j] ELSE [] END | SET mine += $changes)
RETURN linked, seq, epoch, j.status AS status, held
