// One page of the current drawers' index terms after a cursor (the drawer id, in its index's
// order), for the in-memory index's build (`graph.drawer_index`).
MATCH (d:Drawer)
WHERE d.id > $after
RETURN d.id AS id, d.terms AS terms, d.norm_len AS norm_len, d.valid_to IS NULL AS current,
  d.id AS cursor
ORDER BY d.id
LIMIT $limit
