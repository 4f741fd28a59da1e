// Pending duplicate pairs at or above $min_score, kept as vectors arrive
// (graph/duplicate_pairs.py): both drawers current, in scope, and visible to the viewer.
MATCH (a:Drawer)-[c:DUPLICATE_CANDIDATE]->(b:Drawer)
WHERE c.score >= $min_score
  AND a.valid_to IS NULL AND b.valid_to IS NULL
  AND ($wing IS NULL OR (a.wing = $wing AND b.wing = $wing))
  AND ($room IS NULL OR (a.room = $room AND b.room = $room))
  AND ($viewer IS NULL OR coalesce(a.kind, '') <> 'diary' OR a.agent = $viewer)
  AND ($viewer IS NULL OR coalesce(b.kind, '') <> 'diary' OR b.agent = $viewer)
RETURN a.id AS a, b.id AS b, c.score AS score
