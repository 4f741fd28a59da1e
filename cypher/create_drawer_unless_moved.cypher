// `create_drawer` for a write that decided without reading the database (design §4.5): its
// candidates came from the in-memory index and the drawers the service knows, which are exact
// only while the drawer sequence stands where that index has seen it ($seen_*). So the drawer
// is created only if it still does, and if the room holds no current drawer with the write's
// content hash or fingerprint (those candidates the in-memory index does not keep: the write
// reads them then). Otherwise nothing is written and `written` is false: the write reads its
// candidates and comes again. `written_by`, on the sequence's relationship, tells the two apart:
// a token of this call alone.
MATCH (:Meta {name: 'drawer_seq'})-[n:SEQUENCE]->()
WHERE n.epoch = $seen_epoch AND n.value = $seen_value AND coalesce(n.deletes, 0) = $seen_deletes
OPTIONAL MATCH (copy:Drawer {content_hash: $content_hash})
WHERE copy.wing = $wing AND copy.room = $room AND copy.valid_to IS NULL
WITH n, count(copy) AS copies
OPTIONAL MATCH (twin:Drawer {fingerprint: $fingerprint})
WHERE twin.wing = $wing AND twin.room = $room AND twin.valid_to IS NULL
WITH n, copies, count(twin) AS twins
WHERE copies = 0 AND twins = 0
SET n.value = n.value + 1, n.written_by = $token
WITH n.value AS seq
MERGE (w:Wing {name: $wing})
MERGE (r:Room {wing: $wing, name: $room})
MERGE (w)-[:HAS_ROOM]->(r)
CREATE (r)-[:HAS_DRAWER]->(d:Drawer {
  id: $props.id, wing: $props.wing, room: $props.room, content: $props.content,
  content_hash: $props.content_hash, fingerprint: $props.fingerprint,
  norm_len: $props.norm_len, excerpt: $props.excerpt, kind: $props.kind, name: $props.name,
  agent: $props.agent, source_uri: $props.source_uri, created_at: $props.created_at,
  valid_from: $props.valid_from, supersedes: $props.supersedes,
  origin_document: $props.origin_document, origin_chunk: $props.origin_chunk,
  origin_revision: $props.origin_revision, origin_root: $props.origin_root,
  terms_scheme: $props.terms_scheme, terms_text: $props.terms_text,
  seq: seq, unembedded: true, terms: CASE $terms WHEN '' THEN [] ELSE split($terms, ' ') END
})
WITH d
UNWIND $links AS link
MATCH (other:Drawer {id: link.other})
CREATE (d)-[s:SIMILAR_TO]->(other)
SET s += link.evidence
WITH count(s) AS linked
MATCH (:Meta {name: 'drawer_seq'})-[n:SEQUENCE]->()
RETURN linked, n.value AS seq, n.epoch AS epoch, n.written_by = $token AS written
