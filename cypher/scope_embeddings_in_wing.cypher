// The vectors of one wing's current drawers, for an exact all-pairs comparison in memory
// (design §6); `d.room IS NOT NULL` lets the planner seek the (wing, room) index by its wing.
MATCH (d:Drawer)
WHERE d.wing = $wing AND d.room IS NOT NULL AND d.valid_to IS NULL AND d.embedding IS NOT NULL
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN d.id AS id, d.embedding AS vector
ORDER BY id
