// The vector groups numbered after $since, for the in-memory table of vectors
// (graph/vector_groups.py).
MATCH (g:VectorGroup)
WHERE g.seq > $since
RETURN g.hash AS hash, g.vector AS vector, g.seq AS seq
ORDER BY seq
