// The scope's drawers holding each of the given vectors (graph/duplicates.py), read through
// the index on the vector's hash.
UNWIND $hashes AS hash
MATCH (d:Drawer {vector_hash: hash})
WHERE d.valid_to IS NULL
  AND ($wing IS NULL OR d.wing = $wing) AND ($room IS NULL OR d.room = $room)
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN hash, collect(d.id) AS ids
