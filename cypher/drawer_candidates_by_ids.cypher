// A write's dedup candidates when the in-memory index chose them (design §4.5): whole drawers
// with the same content hash or fingerprint (oldest first), as `drawer_candidates` gives them;
// then of the chosen drawers the service does not know yet ($ids: it keeps the normal forms of
// those it knows, `graph.known_drawers`) those still current (one deleted by another instance
// is left out here), as a list of their id, content, normal-form length and of what tells
// whether the writer may compare with them (room, agent, kind: `graph.drawers.CurrentChosen`
// keeps those of its room and visible to its agent, design §8.1). Last, the drawer sequence
// (`graph.drawer_index`; no row: no node yet, 0): a single write reads it here, not with a
// statement of its own, and looks again only if it shows writes or deletes the index has not
// seen.
MATCH (d:Drawer {content_hash: $content_hash})
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($agent IS NULL OR (d.agent = $agent AND d.kind = 'diary'))
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN d {.id, .wing, .room, .content, .content_hash, .fingerprint, .norm_len, .kind, .created_at,
  .name, .agent, .source_uri, .valid_from, .valid_to, .supersedes, .origin_document,
  .origin_chunk, .origin_revision, .origin_root} AS drawer, 'hash' AS via
ORDER BY d.created_at, d.id
LIMIT $exact_limit
UNION ALL
MATCH (d:Drawer {fingerprint: $fingerprint})
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($agent IS NULL OR (d.agent = $agent AND d.kind = 'diary'))
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN d {.id, .wing, .room, .content, .content_hash, .fingerprint, .norm_len, .kind, .created_at,
  .name, .agent, .source_uri, .valid_from, .valid_to, .supersedes, .origin_document,
  .origin_chunk, .origin_revision, .origin_root} AS drawer, 'fingerprint' AS via
ORDER BY d.created_at, d.id
LIMIT $exact_limit
UNION ALL
UNWIND $ids AS id
MATCH (d:Drawer {id: id})
WHERE d.valid_to IS NULL
RETURN [d.id, d.content, d.norm_len, d.wing, d.room, d.agent, d.kind] AS drawer, 'ids' AS via
UNION ALL
MATCH (:Meta {name: 'drawer_seq'})-[n:SEQUENCE]->()
RETURN n {.value, .epoch, .deletes} AS drawer, 'seq' AS via
