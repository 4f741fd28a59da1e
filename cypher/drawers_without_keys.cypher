// plan: NodeByLabelScan — a migration step: each drawer read once, $limit a page
MATCH (d:Drawer)
WHERE d.norm_len IS NULL OR d.content_hash IS NULL OR d.terms IS NULL
RETURN d.id AS id, d.wing AS wing, d.room AS room, d.content AS content
LIMIT $limit
