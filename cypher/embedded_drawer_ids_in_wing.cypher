// The current drawers with a vector in one wing, from the scope index by its wing.
MATCH (d:Drawer)
WHERE d.wing = $wing AND d.room IS NOT NULL AND d.valid_to IS NULL AND d.embedding IS NOT NULL
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN d.id AS id
