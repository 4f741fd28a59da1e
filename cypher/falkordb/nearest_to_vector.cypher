// The k nearest neighbours of a vector about to be stored, at or above the pending-pair floor
// (cosine distance ≤ cutoff). Every neighbour counts, current or not: when k of them reach the
// floor the caller asks again with a larger k (graph/duplicate_pairs.py, design §6).
CALL db.idx.vector.queryNodes('Drawer', 'embedding', $k, vecf32($vector))
YIELD node, score
WITH node, score
WHERE score <= $score_cutoff
RETURN node.id AS b, score, node.id IS NOT NULL AND node.valid_to IS NULL AS current
