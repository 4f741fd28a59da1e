// Current drawers still waiting for a vector, for the embedding worker (see
// `count_drawers_without_embedding` for the mark).
MATCH (d:Drawer {unembedded: true})
WHERE d.valid_to IS NULL
RETURN d.id AS id
LIMIT $limit
