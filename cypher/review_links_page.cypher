// Review links of one status, by similarity descending then the two ids, after a cursor. The
// status index finds them; `a` is the older entity (the link runs from the newer one).
MATCH (b:Entity)-[l:POSSIBLY_SAME_AS]->(a:Entity)
WHERE l.status = $status
  AND ($reason IS NULL OR l.reason = $reason)
  AND ($kind IS NULL OR a.kind = $kind OR b.kind = $kind)
  AND ($after_similarity IS NULL OR l.similarity < $after_similarity
       OR (l.similarity = $after_similarity
           AND (a.id > $after_a OR (a.id = $after_a AND b.id > $after_b))))
RETURN properties(a) AS a, properties(b) AS b, properties(l) AS link
ORDER BY l.similarity DESC, a.id, b.id
LIMIT $limit
