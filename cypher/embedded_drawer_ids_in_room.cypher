// The current drawers with a vector in one room, from the scope index.
MATCH (d:Drawer)
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL AND d.embedding IS NOT NULL
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN d.id AS id
