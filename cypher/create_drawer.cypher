// The drawer sequence (`graph.drawer_index`): every drawer created or closed here carries the
// new value, and the counter stays locked to commit, so a committed value means every lower
// one is committed too. Its value is kept on a relationship of its node, and the drawer's
// properties are written by its CREATE: on FalkorDB a statement that creates nodes and sets a
// node's property pays a cost that grows with the graph (0.35 ms a write at 100 k drawers,
// ~1.5 ms at 100 k nodes made in bulk), where setting a relationship's property costs nothing
// (design §10). `graph.drawers.STORED_PROPERTIES` lists the properties written here.
MERGE (c:Meta {name: 'drawer_seq'})
MERGE (c)-[n:SEQUENCE]->(c)
ON CREATE SET n.value = 0, n.epoch = randomUUID()
SET n.value = n.value + 1
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
RETURN linked, n.value AS seq, n.epoch AS epoch
