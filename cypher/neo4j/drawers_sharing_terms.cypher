CALL db.index.fulltext.queryNodes('drawer_terms', $terms_query, {limit: $per_term})
YIELD node, score
WHERE node.wing = $wing AND node.room = $room AND node.valid_to IS NULL
  AND ($agent IS NULL OR node.agent = $agent)
RETURN node {.*, embedding: null, terms: null, terms_text: null} AS drawer, score AS shared
ORDER BY shared DESC, node.id
LIMIT $limit
