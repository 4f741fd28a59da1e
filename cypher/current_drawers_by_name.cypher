MATCH (d:Drawer {name: $name})
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
RETURN d {.*, embedding: null, terms: null, terms_text: null} AS drawer
ORDER BY d.created_at, d.id
