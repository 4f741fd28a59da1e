// Up to $limit vector groups removed with their pairs, and drawers' memberships, before they
// are computed again (graph/duplicate_pairs.py, migration 13).
MATCH (g:VectorGroup)
WITH g LIMIT $limit
DETACH DELETE g
RETURN count(*) AS dropped
