// The drawers created or closed after the sequence value an in-memory index has seen
// (`graph.drawer_index`): a closed one comes without terms, and leaves the index.
MATCH (d:Drawer)
WHERE d.seq > $after AND d.seq <= $upto
RETURN d.id AS id, d.terms AS terms, d.norm_len AS norm_len, d.valid_to IS NULL AS current
