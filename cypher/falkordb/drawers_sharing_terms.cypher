UNWIND $terms AS term
CALL {
  WITH term
  MATCH (d:Drawer)
  WHERE term IN d.terms
  RETURN d
  LIMIT $per_term
}
WITH term, collect(d) AS postings
ORDER BY size(postings), term
LIMIT $rare_terms
UNWIND postings AS d
WITH d, count(*) AS shared
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($agent IS NULL OR d.agent = $agent)
RETURN d {.*, embedding: null, terms: null, terms_text: null} AS drawer, shared
ORDER BY shared DESC, d.id
LIMIT $limit
