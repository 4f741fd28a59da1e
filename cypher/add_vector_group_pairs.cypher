// plan: CartesianProduct — two unique-index seeks of one group each, per pair
// Pairs of vector groups found by the rebuild's all-pairs pass (graph/duplicate_pairs.py).
UNWIND $pairs AS pair
MATCH (g:VectorGroup {hash: pair.g})
MATCH (h:VectorGroup {hash: pair.h})
CREATE (g)-[p:NEAR_VECTOR]->(h)
SET p.score = pair.score, p.floor = $floor
RETURN count(p) AS added
