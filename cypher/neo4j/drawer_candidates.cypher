// A write's dedup candidates in one round trip, every branch from an index (design §4.3),
// only drawers the writer's agent may see, and for a diary entry ($agent) only its agent's own
// diary entries (design §8.1):
// whole drawers with the same content hash or fingerprint (oldest first), then the id,
// content and normal-form length of the drawers sharing the room's rarest word pairs, and
// of those sharing the most 5-gram bands. Each word pair is asked of the full-text index on its
// own, as FalkorDB asks its array index; the bands (64 of them) are asked in one query of
// all of them, ranked by the index's own score, in which a band common to the room weighs
// little (a query per band cost as much as the rest of the write).
// Terms and bands give only drawers whose normal-form length allows a near copy
// ($min_len..$max_len, or any above $any_len_above: trigram-scored), ranked and capped after
// that filter: a drawer the lengths rule out would be sent for nothing.
// `drawer_terms` is eventually consistent (`schema/neo4j/13_drawer_terms.cypher`): each branch
// that asks it first waits for the updates committed before it.
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
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
UNWIND CASE $terms WHEN '' THEN [] ELSE split($terms, ' ') END AS term
CALL (term) {
  CALL db.index.fulltext.queryNodes('drawer_terms', '"' + term + '"', {limit: $per_term})
  YIELD node
  RETURN node AS d
}
WITH term, collect(d) AS postings
ORDER BY size(postings), term
LIMIT $rare_terms
UNWIND postings AS d
WITH d, count(*) AS shared
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($agent IS NULL OR (d.agent = $agent AND d.kind = 'diary'))
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
  AND coalesce(d.norm_len, 0) >= $min_len
  AND (coalesce(d.norm_len, 0) <= $max_len OR d.norm_len > $any_len_above)
RETURN d {.id, .content, .norm_len} AS drawer, 'terms' AS via
ORDER BY shared DESC, d.id
LIMIT $limit
UNION ALL
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
WITH $bands AS query
WHERE query <> ''
CALL db.index.fulltext.queryNodes('drawer_terms', query, {limit: $per_term})
YIELD node AS d, score
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($agent IS NULL OR (d.agent = $agent AND d.kind = 'diary'))
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
  AND coalesce(d.norm_len, 0) >= $min_len
  AND (coalesce(d.norm_len, 0) <= $max_len OR d.norm_len > $any_len_above)
RETURN d {.id, .content, .norm_len} AS drawer, 'bands' AS via
ORDER BY score DESC, d.id
LIMIT $limit
