MATCH (d:Drawer {fingerprint: $fingerprint})
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($agent IS NULL OR d.agent = $agent)
RETURN d {.*, embedding: null, terms: null, terms_text: null} AS drawer
ORDER BY d.created_at, d.id
LIMIT $limit
