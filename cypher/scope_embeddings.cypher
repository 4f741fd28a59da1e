// The vectors of the whole palace's current drawers (or of one room name in every wing), for an
// exact all-pairs comparison in memory (design §6). A wing or a room of a wing has a statement
// of its own that seeks the scope index (`scope_embeddings_in_wing`, `_in_room`).
// plan: NodeByLabelScan — the whole palace asked for
MATCH (d:Drawer)
WHERE d.valid_to IS NULL AND d.embedding IS NOT NULL AND ($room IS NULL OR d.room = $room)
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN d.id AS id, d.embedding AS vector
ORDER BY id
