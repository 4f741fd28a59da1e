// The dedup candidates of a batch of writes when the in-memory index chose them (design §4.5),
// in one round trip: for each probe (one item of the batch) the hash and fingerprint lookups
// of `drawer_candidates_by_ids`, tagged with the item's index; every chosen drawer of the batch
// the service does not know yet that is still current ($ids), each once, as
// `drawer_candidates_by_ids` reads them, with what each item's filter needs (room, agent,
// kind); and the name holders of the named items. The filter runs in
// Python: on FalkorDB, per item and per id in the statement, it cost 6 µs a drawer, 600
// drawers a batch of 25 at 100 k.
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
UNWIND $ids AS id
MATCH (d:Drawer {id: id})
WHERE d.valid_to IS NULL
RETURN null AS item, [d.id, d.content, d.norm_len, d.wing, d.room, d.agent, d.kind] AS drawer,
  'ids' AS via
UNION ALL
UNWIND $named AS p
MATCH (d:Drawer {name: p.name})
WHERE d.wing = p.wing AND d.room = p.room AND d.valid_to IS NULL
RETURN p.item AS item, d {.id, .wing, .room, .content, .content_hash, .fingerprint, .norm_len, .kind, .created_at,
  .name, .agent, .source_uri, .valid_from, .valid_to, .supersedes, .origin_document,
  .origin_chunk, .origin_revision, .origin_root} AS drawer,
  'name' AS via
UNION ALL
MATCH (:Meta {name: 'drawer_seq'})-[n:SEQUENCE]->()
RETURN null AS item, n {.value, .epoch, .deletes} AS drawer, 'seq' AS via
