// The dedup candidates of a batch of writes when the in-memory index chose them (design §4.5),
// in one round trip: for each probe (one item of the batch) what `drawer_candidates_by_ids`
// returns for one write, tagged with the item's index, and the name holders of the named items.
UNWIND $probes AS p
CALL {
  WITH p
  MATCH (d:Drawer {content_hash: p.content_hash})
  WHERE d.wing = p.wing AND d.room = p.room AND d.valid_to IS NULL
    AND (p.agent IS NULL OR d.agent = p.agent)
    AND (p.viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = p.viewer)
  RETURN d
  ORDER BY d.created_at, d.id
  LIMIT $exact_limit
}
RETURN p.item AS item, d {.*, embedding: null, terms: null, terms_text: null} AS drawer,
  'hash' AS via
UNION ALL
UNWIND $probes AS p
CALL {
  WITH p
  MATCH (d:Drawer {fingerprint: p.fingerprint})
  WHERE d.wing = p.wing AND d.room = p.room AND d.valid_to IS NULL
    AND (p.agent IS NULL OR d.agent = p.agent)
    AND (p.viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = p.viewer)
  RETURN d
  ORDER BY d.created_at, d.id
  LIMIT $exact_limit
}
RETURN p.item AS item, d {.*, embedding: null, terms: null, terms_text: null} AS drawer,
  'fingerprint' AS via
UNION ALL
UNWIND $probes AS p
UNWIND p.ids AS id
MATCH (d:Drawer {id: id})
WHERE d.wing = p.wing AND d.room = p.room AND d.valid_to IS NULL
  AND (p.agent IS NULL OR d.agent = p.agent)
  AND (p.viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = p.viewer)
RETURN p.item AS item, d {.id, .content, .norm_len} AS drawer, 'ids' AS via
UNION ALL
UNWIND $named AS p
MATCH (d:Drawer {name: p.name})
WHERE d.wing = p.wing AND d.room = p.room AND d.valid_to IS NULL
RETURN p.item AS item, d {.*, embedding: null, terms: null, terms_text: null} AS drawer,
  'name' AS via
