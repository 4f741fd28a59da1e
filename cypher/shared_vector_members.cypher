// The scope's drawers that share their vector with another drawer of the scope, by vector:
// one row per shared vector (graph/duplicates.py).
MATCH (d:Drawer)
WHERE d.vector_hash IS NOT NULL AND d.valid_to IS NULL
  AND ($wing IS NULL OR d.wing = $wing) AND ($room IS NULL OR d.room = $room)
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
WITH d.vector_hash AS hash, collect(d.id) AS ids
WHERE size(ids) > 1
RETURN hash, ids
