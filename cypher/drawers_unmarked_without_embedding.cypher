// Current drawers without a vector written before drawers carried the `unembedded` mark.
// plan: NodeByLabelScan — a migration step: each drawer read once, $limit a page
MATCH (d:Drawer)
WHERE d.valid_to IS NULL AND d.embedding IS NULL AND d.unembedded IS NULL
RETURN d.id AS id
LIMIT $limit
