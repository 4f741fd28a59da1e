// How many pending duplicate pairs reach $min_score among the drawers the viewer may see
// (GET /api/hygiene): a count of stored edges, whatever the size of the palace.
MATCH (a:Drawer)-[c:DUPLICATE_CANDIDATE]->(b:Drawer)
WHERE c.score >= $min_score
  AND a.valid_to IS NULL AND b.valid_to IS NULL
  AND ($viewer IS NULL OR coalesce(a.kind, '') <> 'diary' OR a.agent = $viewer)
  AND ($viewer IS NULL OR coalesce(b.kind, '') <> 'diary' OR b.agent = $viewer)
RETURN count(c) AS pending
