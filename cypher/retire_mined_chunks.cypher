// Retire mined chunks by name: a file's chunks past its new end, or a vanished file's. A
// retired chunk is closed like a superseded drawer — kept, no longer current, out of the
// candidate indexes — but nothing replaces it. `retired_by` lets a resumed job count again the
// chunks it retired before an interruption, so its counts come out as in one run.
// The drawer sequence (`graph.drawer_index`): every drawer created or closed here carries the
// new value, and the counter stays locked to commit, so a committed value means every lower
// one is committed too.
MERGE (c:Meta {name: 'drawer_seq'})
MERGE (c)-[n:SEQUENCE]->(c)
ON CREATE SET n.value = 0, n.epoch = randomUUID()
SET n.value = n.value + 1
WITH n.value AS seq
UNWIND $names AS name
MATCH (d:Drawer {name: name})
WHERE d.wing = $wing AND d.room = $room AND d.kind = 'file'
  AND (d.valid_to IS NULL OR d.retired_by = $job)
SET d.valid_to = coalesce(d.valid_to, $now), d.retired_by = $job, d.seq = seq, d.embedding = null, d.unembedded = null, d.vector_hash = null,
    d.terms = null, d.terms_text = null
WITH d
OPTIONAL MATCH (d)-[verdict:DEDUP_CHECKED]-(:Drawer)
DELETE verdict
RETURN count(DISTINCT d) AS retired
