// Whether a vector is stored already: its group holds every drawer with that vector, and its
// pairs with other groups were computed when it was first stored (graph/vector_groups.py).
MATCH (g:VectorGroup {hash: $hash})
RETURN g.hash AS hash
