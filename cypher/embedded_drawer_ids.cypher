// The current drawers with a vector in the whole palace (or of one room name in every wing).
// plan: NodeByLabelScan — the whole palace asked for
MATCH (d:Drawer)
WHERE d.valid_to IS NULL AND d.embedding IS NOT NULL AND ($room IS NULL OR d.room = $room)
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN d.id AS id
