// The drawer joins its vector's group when current (graph/vector_groups.py).
MATCH (d:Drawer {id: $id})
SET d.vector_hash = CASE WHEN d.valid_to IS NULL THEN $hash ELSE null END, d.unembedded = null
WITH d
CALL db.create.setNodeVectorProperty(d, 'embedding', $vector)
RETURN d.id AS id
