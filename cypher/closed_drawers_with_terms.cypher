// plan: NodeByLabelScan — a migration step: each drawer read once, $limit a page
// Closed (superseded) drawers that still carry anchor terms: written before superseding
// dropped them, they crowd the candidate postings of the drawers that replaced them.
MATCH (d:Drawer)
WHERE d.valid_to IS NOT NULL AND (d.terms IS NOT NULL OR d.terms_text IS NOT NULL)
RETURN d.id AS id
LIMIT $limit
