// A room's current drawers whose content holds every given word (`$words`, lower case), oldest
// first: read from the scope index and filtered, so a search costs one room, never the palace.
MATCH (d:Drawer)
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
  AND all(word IN $words WHERE toLower(d.content) CONTAINS word)
RETURN d {.*, embedding: null, terms: null, terms_text: null} AS drawer
ORDER BY d.created_at, d.id
LIMIT $limit
