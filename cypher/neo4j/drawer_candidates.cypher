// A write's dedup candidates in one round trip, every branch from an index (design §4.3):
// whole drawers with the same content hash or fingerprint (oldest first), then the id,
// content and normal-form length of the drawers whose anchor terms match best (full-text).
MATCH (d:Drawer {content_hash: $content_hash})
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($agent IS NULL OR d.agent = $agent)
RETURN d {.*, embedding: null, terms: null, terms_text: null} AS drawer, 'hash' AS via
ORDER BY d.created_at, d.id
LIMIT $exact_limit
UNION ALL
MATCH (d:Drawer {fingerprint: $fingerprint})
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($agent IS NULL OR d.agent = $agent)
RETURN d {.*, embedding: null, terms: null, terms_text: null} AS drawer, 'fingerprint' AS via
ORDER BY d.created_at, d.id
LIMIT $exact_limit
UNION ALL
CALL db.index.fulltext.queryNodes('drawer_terms', $terms_query, {limit: $per_term})
YIELD node, score
WHERE node.wing = $wing AND node.room = $room AND node.valid_to IS NULL
  AND ($agent IS NULL OR node.agent = $agent)
RETURN node {.id, .content, .norm_len} AS drawer, 'terms' AS via
ORDER BY score DESC, node.id
LIMIT $limit
