// Vector groups created in bulk (the rebuild), numbered after the groups' counter.
MATCH (m:Meta {name: 'embeddings'})
SET m.groups = coalesce(m.groups, 0) + size($groups),
    m.groups_epoch = coalesce(m.groups_epoch, randomUUID())
WITH m.groups - size($groups) AS before
UNWIND range(0, size($groups) - 1) AS i
CREATE (g:VectorGroup {hash: $groups[i].hash, vector: $groups[i].vector, seq: before + i + 1})
RETURN count(g) AS created
