MATCH (d:Drawer {name: $name})
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
RETURN d {.id, .wing, .room, .content, .content_hash, .fingerprint, .norm_len, .kind, .created_at,
  .name, .agent, .source_uri, .valid_from, .valid_to, .supersedes, .origin_document,
  .origin_chunk, .origin_revision, .origin_root} AS drawer
ORDER BY d.created_at, d.id
