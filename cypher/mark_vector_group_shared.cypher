// A vector stored again: its group holds (or held) two drawers or more, so readers look its
// members up (graph/duplicates.py) without scanning every drawer for shared vectors.
MATCH (g:VectorGroup {hash: $hash})
WHERE g.shared IS NULL
SET g.shared = true
RETURN g.hash AS hash
