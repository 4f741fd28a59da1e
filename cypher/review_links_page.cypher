// Review links of one status, by similarity descending then the two ids, after a cursor, in a
// band of similarities (`graph.entities.review_links`) that the similarity index finds. `a` is
// the older entity (the link runs from the newer one). The cursor's similarity is compared
// within a tolerance: FalkorDB answers doubles to 15 digits.
// The nodes go unlabelled: only entities have these links, and a label has FalkorDB scan it
// before the index.
MATCH (b)-[l:POSSIBLY_SAME_AS]->(a)
WHERE l.similarity >= $lower AND l.similarity <= $upper AND l.status = $status
  AND ($reason IS NULL OR l.reason = $reason)
  AND ($kind IS NULL OR a.kind = $kind OR b.kind = $kind)
  AND ($after_similarity IS NULL OR l.similarity < $after_similarity - $tolerance
       OR (abs(l.similarity - $after_similarity) <= $tolerance
           AND (a.id > $after_a OR (a.id = $after_a AND b.id > $after_b))))
// Sorted and cut before the maps are projected: projecting every matched link first was
// two thirds of a page's time when thousands of links share one similarity.
WITH a, b, l
ORDER BY l.similarity DESC, a.id, b.id
LIMIT $limit
RETURN a {.id, .name, .kind, .key, .aliases, .alias_keys, .created_at, .same_as} AS a,
       b {.id, .name, .kind, .key, .aliases, .alias_keys, .created_at, .same_as} AS b,
       properties(l) AS link
ORDER BY link.similarity DESC, a.id, b.id
