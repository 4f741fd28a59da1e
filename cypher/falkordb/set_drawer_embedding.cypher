// Cleared first, in the same statement: FalkorDB 4.16.3 silently keeps the old vector of some
// nodes when one is overwritten directly, once drawers have been deleted (a re-embedded drawer
// would go on being searched, and compared, by its old vector).
// The drawer joins its vector's group when current (graph/vector_groups.py).
MATCH (d:Drawer {id: $id})
SET d.embedding = null, d.unembedded = null, d.vector_hash = CASE WHEN d.valid_to IS NULL THEN $hash ELSE null END
WITH d
SET d.embedding = vecf32($vector)
RETURN d.id AS id
