// Each drawer's k nearest neighbours at or above the threshold (cosine distance ≤ cutoff).
// `close` counts them all, in scope or not: when it reaches k the caller asks again with a
// larger k, so neighbours beyond k (boilerplate in other rooms) never hide a pair (design §6).
UNWIND $ids AS id
MATCH (d:Drawer {id: id})
CALL db.idx.vector.queryNodes('Drawer', 'embedding', $k, d.embedding)
YIELD node, score
WITH id, node, score
WHERE score <= $score_cutoff
WITH id, count(node) AS close, collect(
  CASE
    WHEN node.id <> id AND node.valid_to IS NULL
      AND ($wing IS NULL OR node.wing = $wing) AND ($room IS NULL OR node.room = $room)
      AND ($viewer IS NULL OR coalesce(node.kind, '') <> 'diary' OR node.agent = $viewer)
    THEN {b: node.id, score: score}
  END
) AS found
RETURN id AS a, close, found
