// The vectors of one room's current drawers, for an exact all-pairs comparison in memory
// (design §6): no k-NN cut-off, whatever the rest of the palace holds.
MATCH (d:Drawer)
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL AND d.embedding IS NOT NULL
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN d.id AS id, d.embedding AS vector
ORDER BY id
