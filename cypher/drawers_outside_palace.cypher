// plan: NodeByLabelScan — a migration step: each drawer read once, $limit a page
MATCH (d:Drawer)
WHERE NOT (d)<-[:HAS_DRAWER]-(:Room)
RETURN d.id AS id, d.wing AS wing, d.room AS room
LIMIT $limit
