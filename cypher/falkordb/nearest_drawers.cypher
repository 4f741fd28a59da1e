UNWIND $ids AS id
MATCH (d:Drawer {id: id})
CALL db.idx.vector.queryNodes('Drawer', 'embedding', $k, d.embedding)
YIELD node, score
WITH id, node, score
WHERE score <= $score_cutoff AND node.id <> id AND node.valid_to IS NULL
  AND ($wing IS NULL OR node.wing = $wing) AND ($room IS NULL OR node.room = $room)
  AND ($viewer IS NULL OR coalesce(node.kind, '') <> 'diary' OR node.agent = $viewer)
RETURN id AS a, node.id AS b, score
