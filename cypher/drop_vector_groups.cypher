// plan: NodeByLabelScan — the rebuild of every vector group (migration 13), $limit a page
// Up to $limit vector groups removed with their pairs, and drawers' memberships, before they
// are computed again (graph/duplicate_pairs.py, migration 13).
MATCH (g:VectorGroup)
WITH g LIMIT $limit
DETACH DELETE g
RETURN count(*) AS dropped
