// The vectors of a small scope's current drawers, for an exact all-pairs comparison in memory
// (design §6): no k-NN cut-off, whatever the rest of the palace holds.
MATCH (d:Drawer)
WHERE d.valid_to IS NULL AND d.embedding IS NOT NULL
  AND ($wing IS NULL OR d.wing = $wing) AND ($room IS NULL OR d.room = $room)
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN d.id AS id, d.embedding AS vector
ORDER BY id
