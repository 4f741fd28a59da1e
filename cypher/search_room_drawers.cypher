// A room's current drawers whose content holds every given word (`$words`, lower case), oldest
// first: read from the scope index and filtered, so a search costs one room, never the palace.
MATCH (d:Drawer)
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
  AND all(word IN $words WHERE toLower(d.content) CONTAINS word)
RETURN d {.id, .wing, .room, .content, .content_hash, .fingerprint, .norm_len, .kind, .created_at,
  .name, .agent, .source_uri, .valid_from, .valid_to, .supersedes, .origin_document,
  .origin_chunk, .origin_revision, .origin_root} AS drawer
ORDER BY d.created_at, d.id
LIMIT $limit
