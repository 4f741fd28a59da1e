MATCH (d:Drawer)
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
  AND ($after_created IS NULL OR d.created_at > $after_created
       OR (d.created_at = $after_created AND d.id > $after_id))
RETURN d {.*, embedding: null, terms: null, terms_text: null} AS drawer
ORDER BY d.created_at, d.id
LIMIT $limit
