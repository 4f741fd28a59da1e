// A write's dedup candidates when the in-memory index chose them (design §4.5): whole drawers
// with the same content hash or fingerprint (oldest first), as `drawer_candidates` gives them,
// then the id, content and normal-form length of the chosen drawers ($ids) that are still
// current, of the room and visible to the writer's agent (design §8.1): the index may hold a
// drawer closed or deleted since, and this read is what leaves it out. Last, the drawer
// sequence (`graph.drawer_index`; no row: no node yet, 0): a single write reads it here, not
// with a statement of its own, and looks again only if it shows writes the index has not seen.
MATCH (d:Drawer {content_hash: $content_hash})
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($agent IS NULL OR d.agent = $agent)
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN d {.*, embedding: null, terms: null, terms_text: null} AS drawer, 'hash' AS via
ORDER BY d.created_at, d.id
LIMIT $exact_limit
UNION ALL
MATCH (d:Drawer {fingerprint: $fingerprint})
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($agent IS NULL OR d.agent = $agent)
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN d {.*, embedding: null, terms: null, terms_text: null} AS drawer, 'fingerprint' AS via
ORDER BY d.created_at, d.id
LIMIT $exact_limit
UNION ALL
UNWIND $ids AS id
MATCH (d:Drawer {id: id})
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($agent IS NULL OR d.agent = $agent)
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN d {.id, .content, .norm_len} AS drawer, 'ids' AS via
UNION ALL
MATCH (c:Meta {name: 'drawer_seq'})
RETURN c {.value, .epoch} AS drawer, 'seq' AS via
