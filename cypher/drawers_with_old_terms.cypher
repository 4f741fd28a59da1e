// plan: NodeByLabelScan — a migration step: each drawer read once, $limit a page
MATCH (d:Drawer)
// Current drawers only: a closed one is never a candidate and keeps no terms (version 6).
WHERE d.valid_to IS NULL AND (d.terms_scheme IS NULL OR d.terms_scheme <> $scheme)
RETURN d.id AS id, d.wing AS wing, d.room AS room, d.content AS content
LIMIT $limit
