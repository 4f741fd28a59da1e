// One page of the current drawers' index terms after a cursor (the internal node id, as
// entity_spellings_page), for the in-memory index's build (`graph.drawer_index`).
MATCH (d:Drawer)
WHERE id(d) > $after
WITH d
LIMIT $limit
RETURN d.id AS id, d.terms AS terms, d.norm_len AS norm_len, d.valid_to IS NULL AS current,
  id(d) AS cursor
