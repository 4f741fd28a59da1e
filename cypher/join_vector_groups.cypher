// Drawers joining their vector groups in bulk (the rebuild, graph/duplicate_pairs.py).
UNWIND $rows AS row
MATCH (d:Drawer {id: row.id})
WHERE d.valid_to IS NULL
SET d.vector_hash = row.hash
RETURN count(d) AS joined
