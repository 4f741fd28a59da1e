// The dedup candidates of a batch of writes in one round trip (design §4.3, §4.5): for each
// probe (one item of the batch) exactly what `drawer_candidates` returns for a single write,
// branch by branch (each word pair asked of the full-text index on its own, the bands in one
// query ranked by the index's score), tagged with the item's index. Only drawers the item's agent may see, and for a
// diary entry (agent) only its agent's own diary entries (design §8.1).
// Terms and bands give only drawers whose normal-form length allows a near copy
// (the probe's min_len..max_len, or any above $any_len_above: trigram-scored), ranked and capped after
// that filter: a drawer the lengths rule out would be sent for nothing.
// `drawer_terms` is eventually consistent (`schema/neo4j/13_drawer_terms.cypher`): each branch
// that asks it first waits for the updates committed before it.
UNWIND $probes AS p
CALL (p) {
  MATCH (d:Drawer {content_hash: p.content_hash})
  WHERE d.wing = p.wing AND d.room = p.room AND d.valid_to IS NULL
    AND (p.agent IS NULL OR (d.agent = p.agent AND d.kind = 'diary'))
    AND (p.viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = p.viewer)
  RETURN d
  ORDER BY d.created_at, d.id
  LIMIT $exact_limit
}
RETURN p.item AS item, d {.id, .wing, .room, .content, .content_hash, .fingerprint, .norm_len, .kind, .created_at,
  .name, .agent, .source_uri, .valid_from, .valid_to, .supersedes, .origin_document,
  .origin_chunk, .origin_revision, .origin_root} AS drawer,
  'hash' AS via
UNION ALL
UNWIND $probes AS p
CALL (p) {
  MATCH (d:Drawer {fingerprint: p.fingerprint})
  WHERE d.wing = p.wing AND d.room = p.room AND d.valid_to IS NULL
    AND (p.agent IS NULL OR (d.agent = p.agent AND d.kind = 'diary'))
    AND (p.viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = p.viewer)
  RETURN d
  ORDER BY d.created_at, d.id
  LIMIT $exact_limit
}
RETURN p.item AS item, d {.id, .wing, .room, .content, .content_hash, .fingerprint, .norm_len, .kind, .created_at,
  .name, .agent, .source_uri, .valid_from, .valid_to, .supersedes, .origin_document,
  .origin_chunk, .origin_revision, .origin_root} AS drawer,
  'fingerprint' AS via
UNION ALL
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
UNWIND $probes AS p
CALL (p) {
  WITH CASE p.terms WHEN '' THEN [] ELSE split(p.terms, ' ') END AS terms,
    p.wing AS wing, p.room AS room, p.agent AS agent, p.viewer AS viewer, p.min_len AS min_len, p.max_len AS max_len
  UNWIND terms AS term
  CALL (term) {
    CALL db.index.fulltext.queryNodes('drawer_terms', '"' + term + '"', {limit: $per_term})
    YIELD node
    RETURN node AS d
  }
  WITH wing, room, agent, viewer, min_len, max_len, term, collect(d) AS postings
  ORDER BY size(postings), term
  LIMIT $rare_terms
  UNWIND postings AS d
  WITH wing, room, agent, viewer, min_len, max_len, d, count(*) AS shared
  WHERE d.wing = wing AND d.room = room AND d.valid_to IS NULL
    AND (agent IS NULL OR (d.agent = agent AND d.kind = 'diary'))
    AND (viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = viewer)
    AND coalesce(d.norm_len, 0) >= min_len
    AND (coalesce(d.norm_len, 0) <= max_len OR d.norm_len > $any_len_above)
  RETURN d, shared
  ORDER BY shared DESC, d.id
  LIMIT $limit
}
RETURN p.item AS item, d {.id, .content, .norm_len} AS drawer, 'terms' AS via
UNION ALL
CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
UNWIND $probes AS p
CALL (p) {
  WITH p, p.bands AS query
  WHERE query <> ''
  CALL db.index.fulltext.queryNodes('drawer_terms', query, {limit: $per_term})
  YIELD node AS d, score
  WHERE d.wing = p.wing AND d.room = p.room AND d.valid_to IS NULL
    AND (p.agent IS NULL OR (d.agent = p.agent AND d.kind = 'diary'))
    AND (p.viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = p.viewer)
    AND coalesce(d.norm_len, 0) >= p.min_len
    AND (coalesce(d.norm_len, 0) <= p.max_len OR d.norm_len > $any_len_above)
  RETURN d
  ORDER BY score DESC, d.id
  LIMIT $limit
}
RETURN p.item AS item, d {.id, .content, .norm_len} AS drawer, 'bands' AS via
UNION ALL
UNWIND $named AS p
MATCH (d:Drawer {name: p.name})
WHERE d.wing = p.wing AND d.room = p.room AND d.valid_to IS NULL
RETURN p.item AS item, d {.id, .wing, .room, .content, .content_hash, .fingerprint, .norm_len, .kind, .created_at,
  .name, .agent, .source_uri, .valid_from, .valid_to, .supersedes, .origin_document,
  .origin_chunk, .origin_revision, .origin_root} AS drawer,
  'name' AS via
