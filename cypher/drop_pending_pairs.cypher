// plan: DirectedRelationshipTypeScan — a migration step: removes every old pair, $limit a page
// Up to $limit drawer-to-drawer pending pairs removed: kept before vector groups replaced
// them (migration 13).
MATCH (:Drawer)-[c:DUPLICATE_CANDIDATE]->(:Drawer)
WITH c LIMIT $limit
DELETE c
RETURN count(*) AS dropped
