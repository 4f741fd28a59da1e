MATCH (a:Drawer)-[:DEDUP_CHECKED]->(b:Drawer)
RETURN a.id AS a, b.id AS b
