// The pairs of vector groups at or above $min_score (graph/duplicates.py): few, whatever the
// number of drawers sharing each vector.
MATCH (g:VectorGroup)-[p:NEAR_VECTOR]->(h:VectorGroup)
WHERE p.score >= $min_score
RETURN g.hash AS g, h.hash AS h, p.score AS score
