// A vector stored for the first time: its group (the vector as float32 bytes in base64),
// numbered by the groups' counter (kept on the embeddings node, locked to commit), and its
// pairs with every group whose vector reaches the pending-pair floor, found exactly by the
// caller (graph/vector_groups.py, design §6).
MATCH (m:Meta {name: 'embeddings'})
SET m.groups = coalesce(m.groups, 0) + 1, m.groups_epoch = coalesce(m.groups_epoch, randomUUID())
CREATE (g:VectorGroup {hash: $hash, vector: $vector, seq: m.groups})
WITH g
UNWIND $pairs AS pair
MATCH (h:VectorGroup {hash: pair.hash})
CREATE (g)-[p:NEAR_VECTOR]->(h)
SET p.score = pair.score, p.floor = $floor
RETURN count(p) AS pairs
