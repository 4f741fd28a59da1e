// Vector groups created in bulk (the rebuild), numbered after the groups' counter: `group.n`
// counts 1, 2, ... through the batch.
MATCH (m:Meta {name: 'embeddings'})
SET m.groups = coalesce(m.groups, 0) + size($groups),
    m.groups_epoch = coalesce(m.groups_epoch, randomUUID())
WITH m.groups - size($groups) AS before
UNWIND $groups AS group
CREATE (g:VectorGroup {hash: group.hash, vector: group.vector, seq: before + group.n})
SET g.shared = CASE WHEN group.shared THEN true ELSE null END
RETURN count(g) AS created
