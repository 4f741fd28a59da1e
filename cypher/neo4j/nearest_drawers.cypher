UNWIND $ids AS id
MATCH (d:Drawer {id: id})
WHERE d.embedding IS NOT NULL
CALL db.index.vector.queryNodes('drawer_embedding', $k, d.embedding)
YIELD node
WITH id, node, vector.similarity.cosine(d.embedding, node.embedding) AS score
WHERE score >= $score_cutoff AND node.id <> id AND node.valid_to IS NULL
  AND ($wing IS NULL OR node.wing = $wing) AND ($room IS NULL OR node.room = $room)
  AND ($viewer IS NULL OR coalesce(node.kind, '') <> 'diary' OR node.agent = $viewer)
RETURN id AS a, node.id AS b, score
