MATCH (d:Drawer)
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
  AND ($after_created IS NULL OR d.created_at > $after_created
       OR (d.created_at = $after_created AND d.id > $after_id))
RETURN d {.id, .wing, .room, .content, .content_hash, .fingerprint, .norm_len, .kind, .created_at,
  .name, .agent, .source_uri, .valid_from, .valid_to, .supersedes, .origin_document,
  .origin_chunk, .origin_revision, .origin_root} AS drawer
ORDER BY d.created_at, d.id
LIMIT $limit
