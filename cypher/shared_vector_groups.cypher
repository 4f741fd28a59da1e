// The groups whose vector was stored for two drawers or more (graph/duplicates.py): read from
// the index, whatever the size of the palace.
MATCH (g:VectorGroup {shared: true})
RETURN g.hash AS hash
