// The k nearest neighbours of a vector about to be stored, at or above the pending-pair floor,
// re-scored exactly (the index may quantize). Every neighbour counts, current or not: when k of
// them reach the floor the caller asks again with a larger k (graph/duplicate_pairs.py).
CALL db.index.vector.queryNodes('drawer_embedding', $k, $vector)
YIELD node
WITH node, vector.similarity.cosine($vector, node.embedding) AS score
WHERE score >= $score_cutoff
RETURN node.id AS b, score, node.valid_to IS NULL AS current
