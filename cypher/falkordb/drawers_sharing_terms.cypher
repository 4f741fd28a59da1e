UNWIND $terms AS term
CALL {
  WITH term
  MATCH (d:Drawer)
  WHERE term IN d.terms
  RETURN d
  LIMIT $per_term
}
WITH d, count(*) AS shared
WHERE d.wing = $wing AND d.room = $room AND d.valid_to IS NULL
  AND ($agent IS NULL OR d.agent = $agent)
RETURN properties(d) AS drawer, shared
ORDER BY shared DESC, d.id
LIMIT $limit
